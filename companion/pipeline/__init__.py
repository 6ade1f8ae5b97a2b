"""The live pipeline: frames -> readings -> stable table state -> rules-aware game events."""
