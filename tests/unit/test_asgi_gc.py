"""The ASGI application freezes what it loaded out of the garbage collector's generations and
makes full collections rarer (each one walks every socket's objects)."""

import gc
import importlib
import sys


def test_loading_the_asgi_application_freezes_its_objects_and_spaces_full_collections():
    threshold = gc.get_threshold()
    gc.unfreeze()
    gc.set_threshold(700, 10, 10)
    try:
        if "project.asgi" in sys.modules:
            importlib.reload(sys.modules["project.asgi"])
        else:
            importlib.import_module("project.asgi")
        # Django, DRF and Channels are already imported here; whatever is live is frozen.
        assert gc.get_freeze_count() > 10_000
        assert gc.get_threshold()[2] == 100
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
