"""Kafka's own access control as the console shows and changes it: ACLs (SCRAM users and
client quotas to follow), with `kafka-acls.sh`'s semantics."""
