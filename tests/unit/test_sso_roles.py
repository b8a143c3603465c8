"""Group-to-role mapping for single sign-on: read from settings, applied to a user's groups."""

from __future__ import annotations

import pytest

from accounts.sso_roles import (
    MappedRoles,
    MappingError,
    groups_claim,
    parse_group_roles,
    roles_for_groups,
)

MAPPING = parse_group_roles(
    '{"admins": "admin", "ops": "operator", "readers": "viewer",'
    ' "staging-team": {"staging": "operator", "prod": "viewer"},'
    ' "prod-oncall": {"prod": "admin"}}'
)


def test_an_empty_mapping_maps_nothing():
    assert parse_group_roles("") == {} and parse_group_roles("  ") == {}
    assert roles_for_groups(["admins"], {}) == MappedRoles(None, {})


@pytest.mark.parametrize(
    ("raw", "names"),
    [
        ("[1]", "JSON object"),
        ("{", "not JSON"),
        ('{"ops": "operater"}', "'ops': 'operater' is not a role"),
        ('{"ops": {"prod": "root"}}', "cluster 'prod': 'root' is not a role"),
        ('{"ops": {}}', "group 'ops'"),
        ('{"ops": null}', "group 'ops'"),
        ('{"ops": ["viewer"]}', "group 'ops'"),
    ],
)
def test_a_mapping_that_cannot_be_read_is_refused_naming_the_group(raw, names):
    with pytest.raises(MappingError, match=names.replace("(", r"\(")):
        parse_group_roles(raw)


def test_groups_add_up_to_the_highest_role_everywhere_and_per_cluster():
    assert roles_for_groups(["readers"], MAPPING) == MappedRoles("viewer", {})
    assert roles_for_groups(["readers", "ops"], MAPPING) == MappedRoles("operator", {})
    assert roles_for_groups(["readers", "staging-team"], MAPPING) == MappedRoles(
        "viewer", {"staging": "operator"}
    )
    # Two groups naming one cluster: the higher role wins.
    assert roles_for_groups(["staging-team", "prod-oncall"], MAPPING) == MappedRoles(
        None, {"prod": "admin", "staging": "operator"}
    )


def test_a_cluster_role_never_lowers_the_all_clusters_one():
    # operator everywhere beats staging-team's operator/viewer: nothing per cluster is left.
    assert roles_for_groups(["ops", "staging-team"], MAPPING) == MappedRoles("operator", {})
    assert roles_for_groups(["admins", "prod-oncall"], MAPPING) == MappedRoles("admin", {})


def test_a_user_in_no_mapped_group_gets_no_role():
    mapped = roles_for_groups(["marketing", "ADMINS"], MAPPING)  # names are case-sensitive
    assert mapped == MappedRoles(None, {}) and not mapped.any


@pytest.mark.parametrize(
    ("claims", "groups"),
    [
        ({"groups": ["a", "b"]}, ["a", "b"]),
        ({"groups": "a"}, ["a"]),
        ({"groups": ["a", 3, None, {"x": 1}]}, ["a"]),
        ({"groups": None}, []),
        ({"groups": {"a": True}}, []),
        ({}, []),
    ],
)
def test_the_groups_claim_is_read_leniently_and_never_widens(claims, groups):
    assert groups_claim(claims, "groups") == groups
