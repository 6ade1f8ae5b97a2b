"""Card vision: detect cards in a frame, identify them, report readings."""
