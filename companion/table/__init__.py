"""The table under the camera: calibration, seats, corner markers and the change-based card proposer."""
