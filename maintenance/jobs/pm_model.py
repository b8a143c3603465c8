"""Predictive maintenance, the model half: training set, model, scores (pure Spark).

The step functions are shared by the single job types (`training_set.py`, `train_model.py`,
`score.py`) and the `maintenance-pipeline` script. Each takes its own params (validated,
defaults filled) and the results of the steps it reads, and returns its result (JSON-able,
matching the job type's result schema in maintenance/types_model.py). DataFrame API only: no
Python UDFs, so executors on a cluster never need this module.

- `training_set`: features joined with labels on (equipment_id, day). Train = days whose label
  window ends before the cut-off (day + horizon < cutoff: a label must not look past it), test
  = days on or after the cut-off; the days in between are in neither. Training negatives are
  cut to `negative_ratio` per positive, exactly: the negatives ordered by a seeded hash of
  (equipment_id, day) and the first round(ratio x positives) kept (reproducible for a seed,
  whatever the partitioning).
- `train_model`: VectorAssembler + GBT or random forest, fitted on train, evaluated on test.
  The model (an MLlib PipelineModel) goes to `{model_dir}/model`, its result to
  `{model_dir}/metrics.json`; neither is ever overwritten.
- `score`: one prediction per equipment for one day, written to the predictions topic with
  Spark's Kafka sink (at least once: a retried task can write a record twice). Each carries
  its drivers (`driver_weights`) and its recent alarms (`recent_alarm_counts`), from the very
  features the model scored.

Missing feature values (nulls) count as 0.0 for training and scoring alike (`_filled`).
"""

from __future__ import annotations

import json
import math
import re
from datetime import UTC, date, datetime
from typing import Any

from pm_drift import day_drift, drift_reference
from pyspark.ml import Pipeline, PipelineModel
from pyspark.ml.classification import GBTClassifier, RandomForestClassifier
from pyspark.ml.evaluation import BinaryClassificationEvaluator
from pyspark.ml.feature import VectorAssembler
from pyspark.ml.functions import vector_to_array
from pyspark.sql import Column, DataFrame, SparkSession
from pyspark.sql import functions as F

LABEL = "label"
VECTOR = "pm_feature_vector"  # not a name a feature column can have (counts, sums, maxima)
ROC_STEPS = 100  # thresholds 0.00, 0.01, ..., 1.00: at most 101 points
TOP_PREDICTIONS = 10
TOP_DRIVERS = 3
MIN_REFERENCE_ROWS = 100  # evaluation rows enough to be drift's reference (else the training)
DIGITS = 6
SHORT_HISTORY_LISTED = 100  # equipment named in a score's too_little_history (all counted)
_COUNT_COLUMN = re.compile(r"^count_(.+)_(\d+)d$")  # pm_features.feature_columns' counts
_WINDOW_COLUMN = re.compile(r"_(\d+)d$")  # every window feature ends in its window


# --- helpers ----------------------------------------------------------------------------------
def step_result(result: dict[str, Any], step: str) -> dict[str, Any]:
    """The result of `step` from an input job's result: a `maintenance-pipeline` job's result
    is `{step: its result}`, a single step job's result is the step's result itself."""
    inner = result.get(step)
    return inner if isinstance(inner, dict) else result


def check_cutoff(cutoff: str, features: dict[str, Any]) -> None:
    """The cut-off date must fall inside the features' days (when their result says them)."""
    first, last = features.get("first_day"), features.get("last_day")
    if first is None or last is None:
        return
    if (
        not date.fromisoformat(str(first))
        <= date.fromisoformat(cutoff)
        <= date.fromisoformat(str(last))
    ):
        raise ValueError(
            f"params.cutoff_date: {cutoff} is not inside the data ({first} to {last}); "
            "choose a day in that range."
        )


def kept_negatives(positives: int, negatives: int, ratio: float) -> int:
    """How many training negatives stay: round(ratio x positives), at most all of them."""
    return min(negatives, math.floor(ratio * positives + 0.5))


def roc_points(histogram: dict[int, tuple[int, int]], steps: int = ROC_STEPS) -> list[list[float]]:
    """ROC points [fpr, tpr] from {bucket: (positives, negatives)}, bucket = floor(steps x p)
    clipped to 0..steps: the point of threshold k/steps counts the rows of bucket >= k. From
    the highest threshold down (fpr rising); consecutive equal points once. Empty when the
    rows lack positives or negatives (no curve exists)."""
    positives = sum(pos for pos, _ in histogram.values())
    negatives = sum(neg for _, neg in histogram.values())
    if positives == 0 or negatives == 0:
        return []
    points: list[list[float]] = []
    tp = fp = 0
    for k in range(steps, -1, -1):
        pos, neg = histogram.get(k, (0, 0))
        tp, fp = tp + pos, fp + neg
        point = [round(fp / negatives, DIGITS), round(tp / positives, DIGITS)]
        if not points or points[-1] != point:
            points.append(point)
    return points


def precision_recall(
    true_positives: int, predicted_positives: int, positives: int
) -> tuple[float | None, float | None]:
    """Precision and recall at a threshold; None where the denominator is 0 (undefined)."""
    precision = true_positives / predicted_positives if predicted_positives else None
    recall = true_positives / positives if positives else None
    return (
        None if precision is None else round(precision, DIGITS),
        None if recall is None else round(recall, DIGITS),
    )


def _filled(df: DataFrame, columns: list[str]) -> DataFrame:
    """Feature columns as doubles, a missing value as 0.0 (the same for training and scoring)."""
    return df.select(
        *(c for c in df.columns if c not in columns),
        *(F.coalesce(F.col(c).cast("double"), F.lit(0.0)).alias(c) for c in columns),
    )


def _hadoop_path(spark: SparkSession, path: str) -> tuple[Any, Any]:
    """(Hadoop FileSystem, Path) of a path or URI: the output dir may be hdfs://, s3a://..."""
    jvm: Any = spark.sparkContext._jvm
    target = jvm.org.apache.hadoop.fs.Path(path)
    return target.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration()), target


def _write_text(spark: SparkSession, path: str, text: str) -> None:
    """A small file through Hadoop's FileSystem (any URI the output dir may be); never
    overwrites."""
    fs, target = _hadoop_path(spark, path)
    stream = fs.create(target, False)
    try:
        stream.write(bytearray(text.encode()))
    finally:
        stream.close()


def _table(columns: list[str], rows: list[list[Any]]) -> dict[str, Any]:
    return {"columns": columns, "rows": rows}


def evaluate(
    model: Any, rows: DataFrame, threshold: float
) -> tuple[dict[str, Any], dict[int, tuple[int, int]]]:
    """A fitted pipeline's metrics on labelled rows (ROC and PR AUC, precision and recall at
    `threshold`, rows, positives) and its {probability bucket: (positives, negatives)}
    histogram: how train-model judges its model, and how the retraining's challenge judges
    two models on the same rows."""
    probability = vector_to_array(F.col("probability"))[1]
    scored = model.transform(rows).select(LABEL, probability.alias("p")).cache()
    counts = scored.agg(
        F.count(F.lit(1)).alias("rows"),
        F.sum(LABEL).alias("positives"),
        F.sum(F.when(F.col("p") >= threshold, 1).otherwise(0)).alias("predicted"),
        F.sum(F.when((F.col("p") >= threshold) & (F.col(LABEL) == 1), 1).otherwise(0)).alias("tp"),
    ).first()
    assert counts is not None
    total, positives = int(counts["rows"] or 0), int(counts["positives"] or 0)
    precision, recall = precision_recall(
        int(counts["tp"] or 0), int(counts["predicted"] or 0), positives
    )
    roc_auc = pr_auc = None
    if 0 < positives < total:  # both classes: the curves exist
        roc_auc = round(
            float(
                BinaryClassificationEvaluator(
                    rawPredictionCol="p", labelCol=LABEL, metricName="areaUnderROC"
                ).evaluate(scored)
            ),
            DIGITS,
        )
        pr_auc = round(
            float(
                BinaryClassificationEvaluator(
                    rawPredictionCol="p", labelCol=LABEL, metricName="areaUnderPR"
                ).evaluate(scored)
            ),
            DIGITS,
        )
    bucket = F.least(F.greatest(F.floor(F.col("p") * ROC_STEPS), F.lit(0)), F.lit(ROC_STEPS))
    histogram = {
        int(r["b"]): (int(r["pos"]), int(r["n"]) - int(r["pos"]))
        for r in scored.groupBy(bucket.cast("int").alias("b"))
        .agg(F.sum(LABEL).cast("long").alias("pos"), F.count(F.lit(1)).alias("n"))
        .collect()
    }
    scored.unpersist()
    metrics = {
        "roc_auc": roc_auc,
        "pr_auc": pr_auc,
        "precision": precision,
        "recall": recall,
        "threshold": threshold,
        "test_rows": total,
        "test_positives": positives,
    }
    return metrics, histogram


def labelled_rows(spark: SparkSession, path: str, columns: list[str]) -> DataFrame:
    """A training set's part (train/ or test/) with its label as a double and the feature
    columns filled: what a model is fitted on or judged on."""
    df = spark.read.parquet(path).withColumn(LABEL, F.col(LABEL).cast("double"))
    return _filled(df, columns)


# --- training-set -----------------------------------------------------------------------------
def training_set(
    spark: SparkSession,
    params: dict[str, Any],
    features: dict[str, Any],
    labels: dict[str, Any],
    output_path: str,
) -> dict[str, Any]:
    cutoff_text = str(params["cutoff_date"])
    check_cutoff(cutoff_text, features)
    cutoff = date.fromisoformat(cutoff_text)
    horizon = int(labels["horizon_days"])
    ratio, seed = float(params["negative_ratio"]), int(params["seed"])
    columns = list(features["feature_columns"])
    feats = spark.read.parquet(features["output_path"]).select("equipment_id", "day", *columns)
    labs = spark.read.parquet(labels["output_path"]).select(
        "equipment_id", "day", F.col(LABEL).cast("int").alias(LABEL)
    )
    joined = feats.join(labs, ["equipment_id", "day"])
    in_train = F.date_add(F.col("day"), horizon) < F.lit(cutoff)
    in_test = F.col("day") >= F.lit(cutoff)
    positive = F.col(LABEL) == 1

    def count(condition: Any) -> Any:
        return F.sum(F.when(condition, 1).otherwise(0))

    before = joined.agg(
        F.count(F.lit(1)).alias("rows"),
        count(in_train & positive).alias("train_pos"),
        count(in_train & ~positive).alias("train_neg"),
        count(in_test & positive).alias("test_pos"),
        count(in_test & ~positive).alias("test_neg"),
    ).first()
    assert before is not None
    got = {
        k: int(before[k] or 0) for k in ("rows", "train_pos", "train_neg", "test_pos", "test_neg")
    }
    if got["train_pos"] == 0:
        raise ValueError(
            f"params.cutoff_date: no positive label in the training part (days D with "
            f"D + {horizon} before {cutoff}); choose a later cut-off."
        )
    if got["test_pos"] + got["test_neg"] == 0:
        raise ValueError(
            f"params.cutoff_date: no labelled day on or after {cutoff} (the last "
            f"{horizon} days of the data have no label); choose an earlier cut-off."
        )

    keep = kept_negatives(got["train_pos"], got["train_neg"], ratio)
    # Exact and reproducible: a seeded hash orders the negatives, the first `keep` stay
    # (equipment_id and day break the rare hash tie).
    negatives = (
        joined.where(in_train & ~positive)
        .orderBy(F.xxhash64(F.lit(seed), "equipment_id", "day"), "equipment_id", "day")
        .limit(keep)
    )
    train = joined.where(in_train & positive).unionByName(negatives)
    train_path, test_path = f"{output_path}/train", f"{output_path}/test"
    # errorifexists: an earlier job's files are never overwritten.
    train.write.mode("errorifexists").parquet(train_path)
    joined.where(in_test).write.mode("errorifexists").parquet(test_path)

    # Counted from what was written, not from what was meant to be.
    written = {
        (name, int(r[LABEL])): int(r["count"])
        for name, path in (("train", train_path), ("test", test_path))
        for r in spark.read.parquet(path).groupBy(LABEL).count().collect()
    }
    train_pos, train_neg = written.get(("train", 1), 0), written.get(("train", 0), 0)
    test_pos, test_neg = written.get(("test", 1), 0), written.get(("test", 0), 0)
    return {
        "train_rows": train_pos + train_neg,
        "train_positives": train_pos,
        "train_negatives": train_neg,
        "test_rows": test_pos + test_neg,
        "test_positives": test_pos,
        "test_negatives": test_neg,
        "before": {
            "rows": got["rows"],
            "train_positives": got["train_pos"],
            "train_negatives": got["train_neg"],
            "test_positives": got["test_pos"],
            "test_negatives": got["test_neg"],
            # Labelled days in neither part: their label window crosses the cut-off.
            "excluded": got["rows"]
            - got["train_pos"]
            - got["train_neg"]
            - got["test_pos"]
            - got["test_neg"],
        },
        "cutoff_date": cutoff.isoformat(),
        "horizon_days": horizon,
        "negative_ratio": ratio,
        "seed": seed,
        "feature_columns": columns,
        "output_path": output_path,
        "train_path": train_path,
        "test_path": test_path,
    }


# --- train-model ------------------------------------------------------------------------------
def _classifier(params: dict[str, Any]) -> Any:
    # Both algorithms take the same columns, depth and seed; each has its own size setting.
    shared: dict[str, Any] = {
        "featuresCol": VECTOR,
        "labelCol": LABEL,
        "maxDepth": int(params["max_depth"]),
        "seed": int(params["seed"]),
    }
    if params["algorithm"] == "rf":
        return RandomForestClassifier(numTrees=int(params["num_trees"]), **shared)
    return GBTClassifier(maxIter=int(params["max_iter"]), **shared)


def train_model(
    spark: SparkSession,
    params: dict[str, Any],
    training: dict[str, Any],
    model_dir: str,
    model_id: int,
) -> dict[str, Any]:
    columns = list(training["feature_columns"])
    threshold = float(params["threshold"])
    base = model_dir.rstrip("/")
    fs, target = _hadoop_path(spark, base)
    if fs.exists(target):  # before the fit: minutes of work would be lost at the save
        raise FileExistsError(f"{base} already exists: a model is never overwritten.")

    train = labelled_rows(spark, training["train_path"], columns)
    test = labelled_rows(spark, training["test_path"], columns)
    assembler = VectorAssembler(inputCols=columns, outputCol=VECTOR)
    model = Pipeline(stages=[assembler, _classifier(params)]).fit(train)

    metrics, histogram = evaluate(model, test, threshold)
    rows = metrics["test_rows"]
    # Drift's reference: the evaluation days (the natural population of equipment-days right
    # after the training window); the training rows only when those are too few, since their
    # negatives are cut to `negative_ratio` per positive (pm_drift.py, docs/maintenance-loop.md).
    source = "test" if rows >= MIN_REFERENCE_ROWS else "train"
    reference_rows = test if source == "test" else train
    reference = {
        **drift_reference(reference_rows, columns),
        "source": source,
        "rows": rows if source == "test" else reference_rows.count(),
    }

    classifier: Any = model.stages[-1]
    importances = classifier.featureImportances.toArray()
    ranked = sorted(
        ([c, round(float(v), DIGITS)] for c, v in zip(columns, importances, strict=True)),
        key=lambda item: (-item[1], item[0]),
    )
    model_path = f"{base}/model"
    result: dict[str, Any] = {
        "model_id": int(model_id),
        "model_path": model_path,
        "metrics_path": f"{base}/metrics.json",
        "algorithm": params["algorithm"],
        "params": {k: params[k] for k in sorted(params) if not k.endswith("_job")},
        "feature_columns": columns,
        "train_rows": int(training["train_rows"]) if "train_rows" in training else train.count(),
        "metrics": metrics,
        "roc_curve": _table(["fpr", "tpr"], roc_points(histogram)),
        "feature_importances": _table(["feature", "importance"], ranked),
        "drift_reference": reference,
    }
    model.write().save(model_path)  # fails rather than overwrite an existing model
    _write_text(spark, result["metrics_path"], json.dumps(result, indent=1))
    return result


# --- score ------------------------------------------------------------------------------------
def driver_weights(
    columns: list[str],
    importances: list[float],
    stats: dict[str, tuple[float | None, float | None]],
) -> dict[str, tuple[float, float, float]]:
    """Per feature that can drive a score, (importance, fleet mean, fleet standard deviation)
    of the scored day. A driver of one equipment is a feature on which it stands above the
    day's fleet, weighted by how much the model relies on it: weight = importance x (value -
    mean) / std, the `TOP_DRIVERS` largest positive ones (a tree model has no per-record
    attribution in MLlib; this says "where it is unusual, on what the model looks at").
    Features the model ignores (importance 0) or on which the whole fleet is equal (std 0)
    drive nothing."""
    out: dict[str, tuple[float, float, float]] = {}
    for column, importance in zip(columns, importances, strict=True):
        mean, std = stats.get(column, (None, None))
        if importance > 0 and mean is not None and std is not None and std > 0:
            out[column] = (float(importance), float(mean), float(std))
    return out


def recent_alarm_counts(
    columns: list[str], fault_codes: list[str] | None
) -> tuple[int, list[tuple[str, str]]] | None:
    """(window in days, [(fault code, its count column)]) of the shortest window the model's
    count columns cover: the recent alarms a worklist shows. Codes are the features' own
    (`fault_codes` of their result) where a column's slug matches one, else the slug."""
    windows: dict[int, list[tuple[str, str]]] = {}
    by_slug = {re.sub(r"[^a-z0-9]", "_", c.lower()): c for c in fault_codes or ()}
    for column in columns:
        match = _COUNT_COLUMN.match(column)
        if match:
            slug, days = match.group(1), int(match.group(2))
            windows.setdefault(days, []).append((by_slug.get(slug, slug), column))
    if not windows:
        return None
    days = min(windows)
    return days, windows[days]


def longest_window(columns: list[str]) -> int:
    """The longest trailing window (days) among the model's feature columns; 1 when none has
    one. An equipment needs that many days of history on the scored day to be scored."""
    return max((int(m.group(1)) for c in columns if (m := _WINDOW_COLUMN.search(c))), default=1)


def _drivers_column(weights: dict[str, tuple[float, float, float]]) -> Column:
    if not weights:
        return F.array().cast("array<struct<feature:string,value:double,weight:double>>")
    entries = F.array(
        *(
            F.struct(
                F.round(F.lit(imp) * (F.col(c) - F.lit(mean)) / F.lit(std), DIGITS).alias("weight"),
                F.lit(c).alias("feature"),
                F.col(c).cast("double").alias("value"),
            )
            for c, (imp, mean, std) in weights.items()
        )
    )
    # Largest weight first (structs sort by their first field), positive ones only.
    top = F.slice(F.sort_array(entries, asc=False), 1, TOP_DRIVERS)
    return F.transform(
        F.filter(top, lambda d: d["weight"] > 0),
        lambda d: F.struct(
            d["feature"].alias("feature"), d["value"].alias("value"), d["weight"].alias("weight")
        ),
    )


def _alarms_column(counts: tuple[int, list[tuple[str, str]]] | None) -> Column:
    shape = "array<struct<fault_code:string,count:long,days:int>>"
    if counts is None:
        return F.array().cast(shape)
    days, codes = counts
    entries = F.array(
        *(
            F.struct(
                F.col(column).cast("long").alias("count"),
                F.lit(code).alias("fault_code"),
                F.lit(days).alias("days"),
            )
            for code, column in codes
        )
    )
    # Most frequent first, codes without an alarm left out.
    return F.transform(
        F.filter(F.sort_array(entries, asc=False), lambda a: a["count"] > 0),
        lambda a: F.struct(
            a["fault_code"].alias("fault_code"), a["count"].alias("count"), a["days"].alias("days")
        ),
    ).cast(shape)


def score(
    spark: SparkSession,
    kafka_options: dict[str, Any],
    params: dict[str, Any],
    model: dict[str, Any],
    features: dict[str, Any],
) -> dict[str, Any]:
    pipeline = PipelineModel.load(model["model_path"])
    assembler: Any = pipeline.stages[0]
    columns = list(assembler.getInputCols())
    data = spark.read.parquet(features["output_path"])
    missing = [c for c in columns if c not in data.columns]
    if missing:
        raise ValueError(
            f"params.features_job: the features lack {len(missing)} column(s) the model was "
            f"trained on ({', '.join(missing[:5])}); use features made with the same params."
        )
    day_text = params.get("day") or features.get("last_day")
    if day_text is None:
        latest = data.agg(F.max("day").alias("d")).first()
        day_text = None if latest is None or latest["d"] is None else latest["d"].isoformat()
    if day_text is None:
        raise ValueError("params.features_job: the features have no rows.")
    day = date.fromisoformat(str(day_text))
    model_id = int(model.get("model_id") or params["model_id"])
    topic = params["predictions_topic"]

    # One row per equipment: features hold one per (equipment, day) already; the dedup makes
    # "exactly one record per equipment" hold even for a malformed input.
    # History: an equipment's features start on its first alarm in what was read; one whose
    # longest window reaches back before that has windows that are partly empty, and a score
    # of them would say "healthy" for lack of data. Such equipment is counted and named, not
    # scored.
    needed = longest_window(columns)
    firsts = data.groupBy("equipment_id").agg(F.min("day").alias("_first_day"))
    day_rows = (
        data.where(F.col("day") == F.lit(day))
        .dropDuplicates(["equipment_id"])
        .join(firsts, "equipment_id")
        .withColumn("_history_days", F.datediff(F.lit(day), F.col("_first_day")) + 1)
        .cache()
    )
    short_rows = day_rows.where(F.col("_history_days") < needed)
    short = short_rows.agg(F.count(F.lit(1)).alias("n"), F.min("_first_day").alias("first")).first()
    short_count, short_first = (0, None) if short is None else (int(short["n"]), short["first"])
    listed = (
        short_rows.select("equipment_id", "_first_day", "_history_days")
        .orderBy("equipment_id")
        .limit(SHORT_HISTORY_LISTED)
        .collect()
        if short_count
        else []
    )
    day_count = day_rows.count()
    if day_count == 0:
        raise ValueError(f"params.day: the features have no row for {day.isoformat()}.")
    if day_count == short_count and short_first is not None:
        raise ValueError(
            f"params.day: no equipment has the {needed} days of history the model's longest "
            f"window needs on {day.isoformat()} (the earliest alarm read is of "
            f"{short_first.isoformat()}); score a day from "
            f"{date.fromordinal(short_first.toordinal() + needed - 1).isoformat()} on, or "
            "read alarms from further back."
        )
    rows = _filled(
        day_rows.where(F.col("_history_days") >= needed).drop("_first_day", "_history_days"),
        columns,
    )
    probability = F.round(vector_to_array(F.col("probability"))[1], DIGITS)
    moments = rows.agg(
        *(F.avg(c).alias(f"mean{i}") for i, c in enumerate(columns)),
        *(F.stddev_pop(c).alias(f"std{i}") for i, c in enumerate(columns)),
    ).first()
    stats = {
        c: (moments[f"mean{i}"], moments[f"std{i}"]) if moments is not None else (None, None)
        for i, c in enumerate(columns)
    }
    # Models trained before drift was measured carry no reference: no drift for their scores.
    drift = day_drift(rows, model["drift_reference"]) if model.get("drift_reference") else None
    classifier: Any = pipeline.stages[-1]
    weights = driver_weights(columns, list(classifier.featureImportances.toArray()), stats)
    counts = recent_alarm_counts(columns, features.get("fault_codes"))
    scored = (
        pipeline.transform(rows)
        .select(
            "equipment_id",
            probability.alias("failure_probability"),
            _drivers_column(weights).alias("drivers"),
            _alarms_column(counts).alias("recent_alarms"),
        )
        .cache()
    )
    predictions = scored.count()
    day_rows.unpersist()
    scored_at = datetime.now(UTC).isoformat().replace("+00:00", "Z")
    value = F.to_json(
        F.struct(
            F.col("equipment_id"),
            F.lit(day.isoformat()).alias("day"),
            F.col("failure_probability"),
            F.lit(model_id).alias("model_id"),
            F.lit(scored_at).alias("scored_at"),
            F.col("drivers"),
            F.col("recent_alarms"),
        )
    )
    (
        scored.select(F.col("equipment_id").alias("key"), value.alias("value"))
        .write.format("kafka")
        .options(**kafka_options)
        .option("topic", topic)
        .save()
    )
    top = (
        scored.orderBy(F.desc("failure_probability"), "equipment_id")
        .limit(TOP_PREDICTIONS)
        .collect()
    )
    scored.unpersist()
    return {
        "predictions": predictions,
        "day": day.isoformat(),
        "predictions_topic": topic,
        "model_id": model_id,
        "scored_at": scored_at,
        "top": _table(
            ["equipment_id", "failure_probability"],
            [[r["equipment_id"], float(r["failure_probability"])] for r in top],
        ),
        "drift": drift,
        "too_little_history": {
            "equipment": short_count,
            "longest_window_days": needed,
            "listed": _table(
                ["equipment_id", "first_day", "history_days"],
                [
                    [r["equipment_id"], r["_first_day"].isoformat(), int(r["_history_days"])]
                    for r in listed
                ],
            ),
        },
    }
