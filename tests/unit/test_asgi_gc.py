"""The ASGI application freezes what it loaded out of the garbage collector's generations."""

import gc


def test_loading_the_asgi_application_freezes_its_objects():
    gc.unfreeze()
    try:
        import console.asgi  # noqa: F401

        # Django, DRF and Channels are already imported here; whatever is live is frozen.
        assert gc.get_freeze_count() > 10_000
    finally:
        gc.unfreeze()
