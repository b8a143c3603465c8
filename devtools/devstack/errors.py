"""The one exception the dev stack raises for problems a developer must act on."""


class DevstackError(Exception):
    """A sentence for people: what failed and, where we know it, what to do."""
