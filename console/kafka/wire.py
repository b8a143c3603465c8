"""The small wire client: the requests librdkafka lacks or gets wrong, over any security.

Bound to one cluster (its bootstrap servers and `ClusterSecurity`), used only by
`console.kafka.client.ClusterClient`:
- `quorum_leader()`: the active KRaft controller (DescribeQuorum).
- `list_groups()`: every group with its protocol type and state, every broker asked at once
  (ListGroups; librdkafka's listing has no protocol type).
- `committed_offsets()` and `describe_groups()`: many groups at once, one FindCoordinator for
  all of them and one OffsetFetch (or DescribeGroups) per coordinator, all coordinators at
  once, retrying groups whose coordinator moved.
- `topic_config_values()`: chosen config keys of many topics (DescribeConfigs with keys),
  chunks sent to several brokers at once.
- `topic_on_any_broker()`: one topic's partitions, every broker asked when the first does
  not know it (a topic created a moment ago reaches each broker at its own pace).
- `list_offsets()`: offsets of many partitions: one Metadata request for their leaders, then
  one ListOffsets per leader broker, all leaders at once; partitions whose leader moved
  meanwhile are asked again with fresh metadata.
- `broker_defaults()` and `alter_broker_defaults()`: the cluster-wide dynamic broker configs
  (DescribeConfigs and IncrementalAlterConfigs of the broker resource "").
- `log_dirs()`: each broker's log directories and replica sizes (DescribeLogDirs), every
  broker asked at once.
"""

from __future__ import annotations

import dataclasses
import struct
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TypeVar

from console.clusters import ClusterSecurity
from console.kafka import acl_protocol, protocol, quota_protocol
from console.kafka.connection import (
    Address,
    ConnectionPool,
    WireError,
    WireUnreachable,
    parse_servers,
)
from console.kafka.types import Acl, AclFilter, ConfigValue, LogDir, PartitionMeta, QuotaEntity

TP = tuple[str, int]
R = TypeVar("R")
_CONFIG_CHUNK = 1000
# A partition whose leader did not answer (no Kafka error code is negative but UNKNOWN).
NO_ANSWER = -100
_OFFSET_ATTEMPTS = 3
Layout = dict[Address, dict[str, list[int]]]  # partitions by leader, then topic
# ListOffsets answers worth another round (with fresh leaders).
_ASK_AGAIN = frozenset(protocol.LEADER_MOVED_ERRORS | {NO_ANSWER})
# Group coordinators remembered at most (each about 200 bytes): far above any cluster's groups.
_COORDINATORS_KEPT = 500_000


class WireClient:
    def __init__(self, bootstrap_servers: str, security: ClusterSecurity):
        self.bootstrap = parse_servers(bootstrap_servers)
        self.pool = ConnectionPool(security)
        self._last_metadata: tuple[tuple[bytes, bytes], protocol.Metadata] | None = None
        # Each group's coordinator as FindCoordinator last named it. A coordinator moves only
        # when its __consumer_offsets partition's leader does, and then answers NOT_COORDINATOR
        # (or nothing): those groups are forgotten and looked up again in the same call.
        # Saves two FindCoordinator calls for every group on every sampler pass (20,000 keys
        # each, 0.1-0.2 s of a pass's CPU).
        self._coordinators: dict[str, protocol.Coordinator] = {}
        # Per ListOffsets timestamp, the last first attempt's partitions grouped by leader,
        # with the leader map and partitions they came from: the sampler asks for the same
        # partitions with the same map (a snapshot keeps it while nothing moved) every pass,
        # and grouping 20,000 of them again took 20 ms a read under the profiler.
        self._layouts: dict[int, tuple[Mapping[TP, Address], set[TP], Layout]] = {}

    def close(self) -> None:
        self.pool.close()

    def first_answer(self, build, timeout: float) -> bytes:  # noqa: ANN001 (a request builder)
        """Ask the bootstrap servers in turn; only "no answer" moves on to the next one.

        Authentication and TLS failures are the same on every broker: raised at once.
        """
        errors = []
        for address in self.bootstrap:
            try:
                return self.pool.exchange(address, build, timeout)
            except WireUnreachable as exc:
                errors.append(str(exc))
        raise WireUnreachable("no bootstrap server answered (" + "; ".join(errors) + ")")

    def quorum_leader(self, timeout: float) -> int | None:
        payload = self.first_answer(protocol.describe_quorum_request, timeout)
        try:
            return protocol.parse_describe_quorum_leader(payload)
        except (ValueError, IndexError, UnicodeDecodeError):
            return None

    def committed_offsets(
        self,
        groups: Mapping[str, Iterable[TP] | None],
        timeout: float,
        attempts: int = 4,
        stable: bool = False,
    ) -> dict[str, dict[TP, int | None]]:
        """A group whose coordinator moved is asked again (bounded); a group still failing
        after that raises ProtocolError naming it. `stable`: OffsetFetch's require_stable."""
        wanted = {g: (None if p is None else list(p)) for g, p in groups.items()}

        def build(batch: list[str]) -> Callable[[int], bytes]:
            return lambda cid: protocol.offset_fetch_request(
                {g: wanted[g] for g in batch}, cid, require_stable=stable
            )

        answers = self._per_coordinator(
            list(wanted), build, protocol.parse_offset_fetch, timeout, attempts
        )
        failed = {g: a for g, a in answers.items() if isinstance(a, int)}
        for group, error in failed.items():
            if error not in protocol.RETRIABLE_GROUP_ERRORS and error != NO_ANSWER:
                raise protocol.ProtocolError(f"OffsetFetch for group {group!r}: error {error}")
        if failed:
            names = ", ".join(sorted(failed))
            codes = set(failed.values())
            raise protocol.ProtocolError(f"no committed offsets for {names} (errors {codes})")
        return {g: a for g, a in answers.items() if not isinstance(a, int)}

    def list_groups(self, timeout: float) -> dict[int, tuple[int, list[protocol.ListedGroup]]]:
        """Per broker id: (error code, the groups it coordinates); NO_ANSWER for a broker
        that did not answer. Every broker is asked at once (each lists only its own groups);
        the brokers come from a Metadata request for no topic."""
        brokers = self.metadata([], timeout).brokers
        deadline = time.monotonic() + timeout

        def ask(item: tuple[int, Address]) -> tuple[int, tuple[int, list[protocol.ListedGroup]]]:
            node, address = item
            remaining = max(0.5, deadline - time.monotonic())
            try:
                payload = self.pool.exchange(address, protocol.list_groups_request, remaining)
            except WireUnreachable:
                return node, (NO_ANSWER, [])
            return node, protocol.parse_list_groups(payload)

        addresses = {node: (host, port) for node, (host, port, *_rest) in brokers.items()}
        if not addresses:
            return {}
        with ThreadPoolExecutor(max_workers=min(len(addresses), 8)) as pool:
            return dict(pool.map(ask, sorted(addresses.items())))

    def describe_groups(
        self, groups: list[str], timeout: float, attempts: int = 4
    ) -> dict[str, tuple[int, protocol.DescribedGroup | int]]:
        """Per group: (coordinator node id, what DescribeGroups said or its error code);
        one request per coordinator for all its groups (librdkafka sends one per group:
        minutes for 20,000 groups)."""
        located: dict[str, int] = {}

        def build(batch: list[str]) -> Callable[[int], bytes]:
            return lambda cid: protocol.describe_groups_request(batch, cid)

        answers = self._per_coordinator(
            groups, build, protocol.parse_describe_groups, timeout, attempts, located
        )
        return {g: (located.get(g, -1), a) for g, a in answers.items()}

    def _per_coordinator(
        self,
        groups: list[str],
        build: Callable[[list[str]], Callable[[int], bytes]],
        parse: Callable[[bytes], Mapping[str, R | int]],
        timeout: float,
        attempts: int,
        located: dict[str, int] | None = None,
    ) -> dict[str, R | int]:
        """One request per coordinator for its groups, all coordinators at once; groups whose
        coordinator is not known yet are looked up first (one FindCoordinator for all of them).
        Groups whose coordinator moved or did not answer are looked up again and asked again
        (bounded). Per group: the parsed answer, or the last error code (NO_ANSWER: none came)."""
        pending = list(dict.fromkeys(groups))
        results: dict[str, R | int] = {}
        known = self._coordinators
        if len(known) > _COORDINATORS_KEPT:  # groups deleted long ago: start afresh
            known.clear()
        deadline = time.monotonic() + timeout
        looked_up = True  # whether the last round's failures were found by a fresh lookup
        for attempt in range(attempts):
            if not pending:
                break
            if attempt and looked_up:  # a fresh lookup failed: give the move a moment
                time.sleep(min(0.2 * attempt, max(0.0, deadline - time.monotonic())))
            unknown = [g for g in pending if g not in known]
            looked_up = bool(unknown)
            if unknown:
                remaining = max(0.5, deadline - time.monotonic())
                found = protocol.parse_find_coordinators(
                    self.first_answer(
                        lambda cid, w=unknown: protocol.find_coordinators_request(w, cid),
                        remaining,
                    )
                )
                for group in unknown:
                    lookup = found.get(group, NO_ANSWER)
                    if isinstance(lookup, int):
                        results[group] = lookup
                    else:
                        known[group] = lookup
            by_coordinator: dict[Address, list[str]] = {}
            for group in pending:
                coordinator = known.get(group)
                if coordinator is None:
                    continue  # its lookup failed: the error is its result
                if located is not None:
                    located[group] = coordinator.node_id
                by_coordinator.setdefault(coordinator.address, []).append(group)

            def ask(item: tuple[Address, list[str]]) -> dict[str, R | int]:
                address, batch = item
                remaining = max(0.5, deadline - time.monotonic())
                try:
                    answer = parse(self.pool.exchange(address, build(batch), remaining))
                except WireUnreachable:
                    # That coordinator went away: the next round finds the new one.
                    return dict.fromkeys(batch, NO_ANSWER)
                return {group: answer.get(group, NO_ANSWER) for group in batch}

            # All coordinators at once: each answer waits on its broker, not on the others.
            if len(by_coordinator) == 1:
                results.update(ask(next(iter(by_coordinator.items()))))
            elif by_coordinator:
                with ThreadPoolExecutor(max_workers=len(by_coordinator)) as pool:
                    for answer in pool.map(ask, by_coordinator.items()):
                        results.update(answer)
            pending = [g for g in pending if _ask_again(results.get(g))]
            for group in pending:
                known.pop(group, None)  # moved, or its broker is gone: look it up again
        return results

    def topic_config_values(
        self,
        topics: list[str],
        keys: list[str],
        timeout: float,
        brokers: list[Address] | None = None,
    ) -> dict[str, dict[str, str | None]]:
        """`keys` of every topic; a topic that failed (deleted meanwhile) is left out."""
        if not topics:
            return {}
        targets = brokers or self.bootstrap
        chunks = [topics[i : i + _CONFIG_CHUNK] for i in range(0, len(topics), _CONFIG_CHUNK)]

        def ask(index: int) -> dict[str, dict[str, str | None] | int]:
            chunk = chunks[index]
            first = targets[index % len(targets)]
            order = [first] + [a for a in targets if a != first]
            build = lambda cid: protocol.describe_configs_request(chunk, keys, cid)  # noqa: E731
            last: WireError | None = None
            for address in order:
                try:
                    return protocol.parse_describe_configs(
                        self.pool.exchange(address, build, timeout)
                    )
                except WireUnreachable as exc:
                    last = exc
            assert last is not None
            raise last

        out: dict[str, dict[str, str | None]] = {}
        with ThreadPoolExecutor(max_workers=min(len(chunks), len(targets), 4)) as pool:
            for answer in pool.map(ask, range(len(chunks))):
                out.update({t: v for t, v in answer.items() if not isinstance(v, int)})
        return out

    def metadata(self, topics: list[str] | None, timeout: float) -> protocol.Metadata:
        """Brokers and partition placement of some topics (None: all), from any broker.

        An answer for all topics that is byte for byte the last one but for the controller id
        (nothing changed, the common case) is not parsed again: the last answer's topics are
        returned, the same objects (at 40,000 partitions parsing costs 0.3 s of CPU a
        sampler pass)."""
        payload = self.first_answer(lambda cid: protocol.metadata_request(topics, cid), timeout)
        if topics is not None:
            return protocol.parse_metadata(payload)
        try:
            start, end = protocol.metadata_controller_span(payload)
        except (IndexError, ValueError, UnicodeDecodeError, struct.error):
            return protocol.parse_metadata(payload)  # raises the parse error, named
        # After the correlation id, all but the controller id (which KRaft picks at random).
        body = (payload[4:start], payload[end:])
        last = self._last_metadata
        if last is not None and last[0] == body:
            controller = int.from_bytes(payload[start:end], "big", signed=True)
            return dataclasses.replace(last[1], controller_id=controller)
        parsed = protocol.parse_metadata(payload)
        self._last_metadata = (body, parsed)
        return parsed

    def topic_on_any_broker(
        self, topic: str, wanted: Iterable[int], timeout: float
    ) -> list[PartitionMeta] | None:
        """The topic's partitions; None when no broker knows the topic. When the broker asked
        first does not know it (or lacks a `wanted` partition), every broker is asked at once
        and the one that knows most partitions is believed.

        Brokers learn a topic from the metadata log a moment after CreateTopics answered
        (measured here: up to 90 ms on an idle machine; Kafka's AdminClient documents
        "several seconds"), each at its own pace, so one broker's miss is not the cluster's."""
        first = self.metadata([topic], timeout)
        best = _known(first, topic)
        want = set(wanted)
        if best is not None and want <= {p.partition for p in best}:
            return best
        addresses = sorted({(host, port) for host, port, _ in first.brokers.values()})

        def ask(address: Address) -> list[PartitionMeta] | None:
            try:
                payload = self.pool.exchange(
                    address, lambda cid: protocol.metadata_request([topic], cid), timeout
                )
            except WireUnreachable:
                return None  # that broker is down: the others still count
            return _known(protocol.parse_metadata(payload), topic)

        if addresses:
            with ThreadPoolExecutor(max_workers=len(addresses)) as pool:
                for answer in pool.map(ask, addresses):
                    if answer is not None and (best is None or len(answer) > len(best)):
                        best = answer
        return best

    def list_offsets(
        self,
        partitions: Iterable[TP],
        timestamp: int,
        timeout: float,
        leaders: Mapping[TP, Address] | None = None,
        committed: bool = False,
    ) -> dict[TP, tuple[int, int, int]]:
        """Per partition: (error code, timestamp, offset); `timestamp` is a time in epoch ms
        or one of protocol.LATEST / EARLIEST / MAX_TIMESTAMP, read committed or not
        (`committed`, see protocol.list_offsets_request). `leaders` (from a recent
        snapshot) saves the Metadata request; partitions it lacks, or whose leader moved, are
        looked up. A leader that does not answer gives its partitions NO_ANSWER; the other
        leaders' partitions still count."""
        pending = set(partitions)
        out: dict[TP, tuple[int, int, int]] = {}
        deadline = time.monotonic() + timeout
        known = leaders or {}  # read only (a copy of 40,000 leaders cost a pass 10 ms)
        for attempt in range(_OFFSET_ATTEMPTS):
            if not pending:
                break
            if attempt:
                time.sleep(min(0.3 * attempt, max(0.0, deadline - time.monotonic())))
            placed = not attempt and pending <= known.keys()  # a set comparison, in C
            if not placed:
                remaining = max(0.5, deadline - time.monotonic())
                meta = self.metadata(sorted({t for t, _ in pending}), remaining)
                known = meta.leader_addresses()
                for tp in pending - known.keys():
                    error = meta.topic_errors.get(tp[0])
                    if error is None:
                        exists = tp[0] in meta.topics
                        exists = exists and any(p.partition == tp[1] for p in meta.topics[tp[0]])
                        error = protocol.LEADER_NOT_AVAILABLE if exists else protocol.UNKNOWN_TOPIC
                    out[tp] = (error, -1, -1)
            unplaced: list[TP] = []  # no leader known: their error was set above
            if placed:  # the caller's leaders place every partition (the sampler's case)
                by_leader = self._layout(known, pending, timestamp)
            else:
                by_leader, unplaced = _by_leader(pending, known)
            answers = self._ask_leaders(by_leader, timestamp, deadline, committed)
            out.update(answers)
            pending = {tp for tp, (error, _, _) in answers.items() if error in _ASK_AGAIN}
            pending.update(tp for tp in unplaced if out[tp][0] in _ASK_AGAIN)
        return out

    def _layout(self, known: Mapping[TP, Address], pending: set[TP], timestamp: int) -> Layout:
        """`pending` (every one of which `known` places) grouped by leader, the last call's
        grouping when it had the same map and partitions (compared in C)."""
        if timestamp >= 0:  # a lookup by time (a reset to a date): not the sampler's
            return _by_leader(pending, known)[0]
        last = self._layouts.get(timestamp)  # one per LATEST, EARLIEST, MAX_TIMESTAMP
        if last is not None and last[0] is known and last[1] == pending:
            return last[2]
        by_leader, _ = _by_leader(pending, known)
        self._layouts[timestamp] = (known, pending, by_leader)
        return by_leader

    def _ask_leaders(
        self,
        by_leader: Layout,
        timestamp: int,
        deadline: float,
        committed: bool,
    ) -> dict[TP, tuple[int, int, int]]:
        def ask(item: tuple[Address, dict[str, list[int]]]) -> dict[TP, tuple[int, int, int]]:
            address, wanted = item
            remaining = max(0.5, deadline - time.monotonic())
            try:
                payload = self.pool.exchange(
                    address,
                    lambda cid: protocol.list_offsets_request(wanted, timestamp, cid, committed),
                    remaining,
                )
            except WireUnreachable:
                return {(t, p): (NO_ANSWER, -1, -1) for t, parts in wanted.items() for p in parts}
            answers = protocol.parse_list_offsets(payload)
            if len(answers) >= sum(map(len, wanted.values())):
                return answers  # every partition answered, the common case
            missing = {
                (t, p): (NO_ANSWER, -1, -1)
                for t, parts in wanted.items()
                for p in parts
                if (t, p) not in answers
            }
            return {**missing, **answers}

        out: dict[TP, tuple[int, int, int]] = {}
        if not by_leader:
            return out
        with ThreadPoolExecutor(max_workers=len(by_leader)) as pool:
            for answer in pool.map(ask, by_leader.items()):
                out.update(answer)
        return out

    def broker_defaults(self, timeout: float) -> dict[str, ConfigValue] | int:
        """The cluster-wide dynamic broker configs, or the error code."""
        build = lambda cid: protocol.describe_configs_request(  # noqa: E731
            [""], None, cid, protocol.BROKER_RESOURCE
        )
        answer = protocol.parse_config_entries(self.first_answer(build, timeout))
        return answer.get("", protocol.UNKNOWN_SERVER_ERROR)

    def alter_broker_defaults(
        self,
        set_configs: Mapping[str, str],
        delete: list[str],
        validate_only: bool,
        timeout: float,
    ) -> tuple[int, str | None]:
        """(error code, message) of setting and deleting cluster-wide broker configs; any
        broker takes it (KRaft forwards it to the controller)."""
        build = lambda cid: protocol.incremental_alter_configs_request(  # noqa: E731
            protocol.BROKER_RESOURCE, "", set_configs, delete, validate_only, cid
        )
        answers = protocol.parse_incremental_alter_configs(self.first_answer(build, timeout))
        return answers[0] if answers else (protocol.UNKNOWN_SERVER_ERROR, None)

    def reassignments(
        self, timeout: float
    ) -> tuple[int, str | None, dict[TP, protocol.Reassigning]]:
        """Every partition being reassigned (any broker forwards it to the controller)."""
        payload = self.first_answer(protocol.list_partition_reassignments_request, timeout)
        return protocol.parse_list_partition_reassignments(payload)

    def alter_reassignments(
        self, targets: Mapping[TP, list[int] | None], timeout: float
    ) -> tuple[int, str | None, dict[TP, tuple[int, str | None]]]:
        """Start (target replicas) or cancel (None) partitions' reassignments."""
        build = lambda cid: protocol.alter_partition_reassignments_request(  # noqa: E731
            targets, cid, int(timeout * 1000)
        )
        return protocol.parse_alter_partition_reassignments(self.first_answer(build, timeout))

    def describe_acls(self, flt: AclFilter, timeout: float) -> tuple[int, str | None, list[Acl]]:
        """The bindings a filter selects (any broker answers)."""
        build = lambda cid: acl_protocol.describe_acls_request(flt, cid)  # noqa: E731
        return acl_protocol.parse_describe_acls(self.first_answer(build, timeout))

    def create_acls(self, acls: list[Acl], timeout: float) -> list[tuple[int, str | None]]:
        """(error code, message) per binding (KRaft forwards it to the controller)."""
        build = lambda cid: acl_protocol.create_acls_request(acls, cid)  # noqa: E731
        return acl_protocol.parse_create_acls(self.first_answer(build, timeout))

    def delete_acls(
        self, filters: list[AclFilter], timeout: float
    ) -> list[tuple[int, str | None, list[Acl]]]:
        """Per filter: (error code, message, the bindings it deleted)."""
        build = lambda cid: acl_protocol.delete_acls_request(filters, cid)  # noqa: E731
        return acl_protocol.parse_delete_acls(self.first_answer(build, timeout))

    def describe_client_quotas(
        self, components: list[tuple[str, int, str | None]], strict: bool, timeout: float
    ) -> tuple[int, str | None, dict[QuotaEntity, dict[str, float]]]:
        """The quotas of the entities a filter selects (any broker answers)."""
        build = lambda cid: quota_protocol.describe_client_quotas_request(  # noqa: E731
            components, strict, cid
        )
        return quota_protocol.parse_describe_client_quotas(self.first_answer(build, timeout))

    def alter_client_quotas(
        self,
        entity: QuotaEntity,
        set_values: dict[str, float],
        remove: list[str],
        validate_only: bool,
        timeout: float,
    ) -> list[tuple[int, str | None, QuotaEntity]]:
        """(error code, message, entity) (KRaft forwards it to the controller)."""
        build = lambda cid: quota_protocol.alter_client_quotas_request(  # noqa: E731
            entity, set_values, remove, validate_only, cid
        )
        return quota_protocol.parse_alter_client_quotas(self.first_answer(build, timeout))

    def log_dirs(
        self,
        brokers: Mapping[int, Address],
        timeout: float,
        partitions: Sequence[TP] | None = None,
    ) -> dict[int, tuple[int, list[LogDir]]]:
        """Per broker id: (error code, its log directories, with the replicas of `partitions`
        only when given); NO_ANSWER for a broker that did not answer. DescribeLogDirs is about
        the broker asked, so each one is asked."""
        build = partial(protocol.describe_log_dirs_request, partitions=partitions)

        def ask(item: tuple[int, Address]) -> tuple[int, tuple[int, list[LogDir]]]:
            node, address = item
            try:
                payload = self.pool.exchange(address, build, timeout)
            except WireUnreachable:
                return node, (NO_ANSWER, [])
            return node, protocol.parse_describe_log_dirs(payload)

        if not brokers:
            return {}
        with ThreadPoolExecutor(max_workers=min(len(brokers), 8)) as pool:
            return dict(pool.map(ask, sorted(brokers.items())))


def _known(answer: protocol.Metadata, topic: str) -> list[PartitionMeta] | None:
    """The topic's partitions when the broker knows it; None when it says the topic is
    unknown, its name invalid (INVALID_TOPIC_EXCEPTION for a name Kafka cannot hold), or not
    ours to see. A topic whose leaders are still being elected exists."""
    error = answer.topic_errors.get(topic)
    if error not in (None, protocol.LEADER_NOT_AVAILABLE):
        return None
    return answer.topics.get(topic)


def _by_leader(pending: Iterable[TP], known: Mapping[TP, Address]) -> tuple[Layout, list[TP]]:
    """`pending` grouped by leader and topic, and those `known` has no leader for."""
    by_leader: Layout = {}
    unplaced = []
    for tp in pending:
        address = known.get(tp)
        if address is not None:
            by_leader.setdefault(address, {}).setdefault(tp[0], []).append(tp[1])
        else:
            unplaced.append(tp)
    return by_leader, unplaced


def _ask_again(answer: object) -> bool:
    """A group's answer that another round may improve: its coordinator moved, is loading or
    did not answer."""
    return isinstance(answer, int) and (
        answer in protocol.RETRIABLE_GROUP_ERRORS or answer == NO_ANSWER
    )
