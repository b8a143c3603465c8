"""The local dev stack: a 3-node KRaft Kafka cluster and a Redis, run from cached jars.

`python manage.py devstack up|down|status|...` (or `python -m console.devstack ...`). Other
code imports constants from `console.devstack.config` and helpers such as
`console.devstack.tools.run_tool` and `console.devstack.jars.spark_kafka_jars`.
"""
