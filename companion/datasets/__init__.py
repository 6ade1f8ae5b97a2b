"""Generated training data: a procedural renderer of card tables seen by an overhead camera.

The building blocks are reusable (see ``docs/architecture.md``):
:func:`~companion.datasets.decks.load_deck_images`,
:func:`~companion.datasets.surfaces.render_table`,
:func:`~companion.datasets.compose.place_card`,
:func:`~companion.datasets.hands.draw_hand`,
:func:`~companion.datasets.camera.apply_camera_effects`, and
:func:`~companion.datasets.scene.render_scene`, which combines them into one labelled frame.
"""
