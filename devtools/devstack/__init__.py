"""The local dev stack: a 3-node KRaft Kafka cluster and a Redis, run from cached jars.

`python manage.py devstack up|down|status|...` (or `python -m devtools.devstack ...`). Other
code imports constants from `devtools.devstack.config` and helpers such as
`devtools.devstack.tools.run_tool` and `devtools.devstack.jars.spark_kafka_jars`.
"""
