"""A small Spark program that touches what the console's jobs use (DataFrames, windows,
Parquet and JSON files, an ML pipeline), run once with `-XX:ArchiveClassesAtExit` so that the
classes it loads go into the drivers' class-data sharing archive (sparkjobs/class_archive.py).
It reads no Kafka and writes only below the directory given as its argument."""

from __future__ import annotations

import sys

from pyspark.ml import Pipeline
from pyspark.ml.classification import GBTClassifier, RandomForestClassifier
from pyspark.ml.evaluation import BinaryClassificationEvaluator
from pyspark.ml.feature import VectorAssembler
from pyspark.sql import SparkSession, Window
from pyspark.sql import functions as F


def main(out_dir: str) -> None:
    spark = SparkSession.builder.appName("kafka-console class warm-up").getOrCreate()
    rows = spark.range(400).select(
        (F.col("id") % 7).alias("key"),
        F.col("id").cast("double").alias("x"),
        (F.col("id") % 3 == 0).cast("int").alias("label"),
        F.timestamp_seconds(F.col("id") * 60).alias("at"),
    )
    window = Window.partitionBy("key").orderBy("at").rowsBetween(-5, 0)
    features = rows.withColumn("mean_x", F.avg("x").over(window)).withColumn(
        "prev", F.lag("x").over(Window.partitionBy("key").orderBy("at"))
    )
    features.write.mode("overwrite").parquet(f"{out_dir}/features")
    back = spark.read.parquet(f"{out_dir}/features").fillna(0.0)
    back.groupBy("key").agg(F.count("*"), F.max("at")).write.mode("overwrite").json(
        f"{out_dir}/summary"
    )
    assembler = VectorAssembler(inputCols=["x", "mean_x", "prev"], outputCol="features")
    for model in (
        RandomForestClassifier(labelCol="label", numTrees=3, maxDepth=3),
        GBTClassifier(labelCol="label", maxIter=3, maxDepth=2),
    ):
        fitted = Pipeline(stages=[assembler, model]).fit(back)
        scored = fitted.transform(back)
        BinaryClassificationEvaluator(labelCol="label").evaluate(scored)
    spark.stop()


if __name__ == "__main__":
    main(sys.argv[1])
