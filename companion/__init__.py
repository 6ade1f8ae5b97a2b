"""brisca-companion: score real-card Brisca games from a camera, by the rules."""

__version__ = "0.1.0"
