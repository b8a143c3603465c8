"""The console's roles, lowest first; each includes the ones before it. A module of its own so
that settings can check role names before Django's apps are loaded."""

ROLES: tuple[str, ...] = ("viewer", "operator", "admin")
