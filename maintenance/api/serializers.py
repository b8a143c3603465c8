"""Shapes of the maintenance answers (models, the active model, predictions) and of the
promotion body, for drf-spectacular and the SPA."""

from rest_framework import serializers

from maintenance.lifecycle import HISTORY
from maintenance.models import ModelPromotion, WorklistMark
from maintenance.service import MIN_RECALL, MIN_ROC_AUC
from sparkjobs.api.serializers import ScheduleSerializer


class ModelMetricsSerializer(serializers.Serializer):
    roc_auc = serializers.FloatField(allow_null=True, help_text="ROC AUC on the test part")
    pr_auc = serializers.FloatField(allow_null=True, help_text="PR AUC on the test part")
    precision = serializers.FloatField(allow_null=True, help_text="at `threshold`")
    recall = serializers.FloatField(allow_null=True, help_text="at `threshold`")
    threshold = serializers.FloatField(allow_null=True)


class RocCurveSerializer(serializers.Serializer):
    columns = serializers.ListField(child=serializers.CharField(), help_text='["fpr", "tpr"]')
    rows = serializers.ListField(
        child=serializers.ListField(child=serializers.FloatField()),
        help_text="[fpr, tpr] per threshold, 1.00 down to 0.00 (at most 101)",
    )


class FeatureImportanceSerializer(serializers.Serializer):
    feature = serializers.CharField(help_text="a feature column")
    importance = serializers.FloatField(help_text="the tree model's featureImportances (sum 1)")


class ChallengeSerializer(serializers.Serializer):
    champion_id = serializers.IntegerField(
        allow_null=True, help_text="the model it had to beat (the active one at submit); null: none"
    )
    cutoff_date = serializers.CharField(help_text="the rolled cut-off: the first test day")
    rows = serializers.IntegerField(help_text="the equipment-days both models were measured on")
    positives = serializers.IntegerField(help_text="of those, the days before a failure")
    challenger_roc_auc = serializers.FloatField(allow_null=True, help_text="this model's")
    champion_roc_auc = serializers.FloatField(
        allow_null=True, help_text="the champion's on the same rows; null: not measured"
    )
    margin = serializers.FloatField(help_text="the ROC AUC gain needed to be promoted")
    verdict = serializers.ChoiceField(
        choices=["promote", "keep"], help_text="what the rule decided from the measurements"
    )
    promoted = serializers.BooleanField(help_text="whether the retraining promoted it")
    reason = serializers.CharField(help_text="why it was promoted or kept as a candidate")


class SparkModelSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="the model id: the id of the job that trained it")
    job_id = serializers.IntegerField()
    job_type = serializers.CharField(
        help_text="train-model, maintenance-pipeline or maintenance-retrain"
    )
    cluster = serializers.CharField()
    created_at = serializers.DateTimeField()
    algorithm = serializers.CharField(allow_null=True, help_text="gbt or rf")
    params = serializers.JSONField(help_text="the train-model params")
    metrics = ModelMetricsSerializer()
    quality = serializers.ChoiceField(
        choices=["usable", "chance", "unmeasured"],
        help_text=f"usable; chance: no better than chance (ROC AUC below {MIN_ROC_AUC} or "
        f"recall below {MIN_RECALL}), do not use; unmeasured: the test part gave no ROC AUC "
        "or recall, do not use",
    )
    quality_reason = serializers.CharField(
        allow_null=True, help_text="why it is not usable; null when it is"
    )
    path = serializers.CharField(help_text="where the MLlib PipelineModel is")
    roc_curve = RocCurveSerializer(allow_null=True)
    feature_importances = FeatureImportanceSerializer(
        many=True, help_text="largest first; [] for a model whose result has none"
    )
    active = serializers.BooleanField(help_text="the active model of its cluster")
    challenge = ChallengeSerializer(
        allow_null=True,
        help_text="a retraining's model: how it fared against the active model; null for others",
    )


class PromotionSerializer(serializers.Serializer):
    model_id = serializers.IntegerField()
    how = serializers.ChoiceField(
        choices=ModelPromotion.How.choices,
        help_text="manual: an operator promoted it; auto: a retraining's model beat the active one",
    )
    reason = serializers.CharField(allow_blank=True)
    promoted_by = serializers.CharField(allow_null=True)
    promoted_at = serializers.DateTimeField()


class ActiveModelSerializer(serializers.Serializer):
    cluster = serializers.CharField()
    model = SparkModelSerializer(
        allow_null=True, help_text="null before the first promotion: nothing scores by default"
    )
    how = serializers.ChoiceField(choices=ModelPromotion.How.choices, allow_null=True)
    reason = serializers.CharField(allow_null=True, help_text="why it is active")
    promoted_by = serializers.CharField(allow_null=True)
    promoted_at = serializers.DateTimeField(allow_null=True)
    history = PromotionSerializer(
        many=True, help_text=f"the last {HISTORY} promotions, newest (the active) first"
    )
    scoring_schedule = ScheduleSerializer(
        allow_null=True,
        help_text="the cluster's daily scoring schedule (created by its first promotion), "
        "null before it or once deleted",
    )
    performance_schedule = ScheduleSerializer(
        allow_null=True,
        help_text="the cluster's daily realised-performance schedule (created with the "
        "scoring), null before it or once deleted",
    )
    retrain_schedule = ScheduleSerializer(
        allow_null=True,
        help_text="the cluster's weekly retraining schedule (created with the scoring when the "
        "first model came from a pipeline or a retraining), null before it or once deleted",
    )


class PromoteInputSerializer(serializers.Serializer):
    reason = serializers.CharField(
        max_length=500,
        allow_blank=True,
        default="",
        help_text="why (shown with the active model and in its history)",
    )


class DriverSerializer(serializers.Serializer):
    feature = serializers.CharField()
    value = serializers.FloatField(help_text="the equipment's value on the scored day")
    weight = serializers.FloatField(
        help_text="importance x (value - fleet mean) / fleet standard deviation"
    )


class RecentAlarmsSerializer(serializers.Serializer):
    fault_code = serializers.CharField()
    count = serializers.IntegerField()
    days = serializers.IntegerField(help_text="over the last `days` days up to the scored day")


class PredictionSerializer(serializers.Serializer):
    equipment_id = serializers.CharField()
    day = serializers.CharField(allow_null=True, help_text="YYYY-MM-DD the features are of")
    failure_probability = serializers.FloatField(help_text="0..1")
    model_id = serializers.IntegerField(allow_null=True)
    drivers = DriverSerializer(
        many=True,
        help_text="at most 3 features on which it stands above the day's fleet, weighted by "
        "the model's importance, largest first; [] from a score job before drivers",
    )
    recent_alarms = RecentAlarmsSerializer(
        many=True, help_text="its alarms per fault code over the features' shortest window"
    )


class WorklistItemSerializer(PredictionSerializer):
    outcome = serializers.ChoiceField(
        choices=["failure", "work_order"],
        allow_null=True,
        help_text="what happened after the scored day: a failure (a FAILURE alarm or a failure "
        "work order) outranks any other work order; null: nothing yet",
    )
    outcome_at = serializers.DateTimeField(allow_null=True, help_text="the earliest of the kind")
    outcome_detail = serializers.CharField(
        allow_null=True, help_text="the fault code or the work order's type"
    )
    status = serializers.ChoiceField(
        choices=WorklistMark.Status.choices, help_text="the crew's newest mark; open before any"
    )
    note = serializers.CharField(allow_blank=True)
    marked_by = serializers.CharField(allow_null=True)
    marked_at = serializers.DateTimeField(allow_null=True)
    marked_day = serializers.CharField(
        allow_null=True, help_text="the scored day of the prediction the mark answered"
    )


class WorklistMarkInputSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=WorklistMark.Status.choices)
    note = serializers.CharField(max_length=1000, allow_blank=True, default="")


class PerformanceDaySerializer(serializers.Serializer):
    day = serializers.CharField(help_text="the scored day")
    predictions = serializers.IntegerField()
    known = serializers.IntegerField(help_text="whose horizon ended inside the data")
    pending = serializers.IntegerField(help_text="whose horizon reaches past the data")
    failures = serializers.IntegerField(help_text="known ones that failed within the horizon")
    flagged = serializers.IntegerField(help_text="known ones at or above the threshold")
    precision = serializers.FloatField(allow_null=True)
    recall = serializers.FloatField(allow_null=True)
    roc_auc = serializers.FloatField(allow_null=True)


class PerformanceTotalsSerializer(serializers.Serializer):
    predictions = serializers.IntegerField()
    known = serializers.IntegerField()
    pending = serializers.IntegerField()
    failures = serializers.IntegerField()
    precision = serializers.FloatField(allow_null=True)
    recall = serializers.FloatField(allow_null=True)


class CalibrationSerializer(serializers.Serializer):
    columns = serializers.ListField(
        child=serializers.CharField(),
        help_text='["band_low", "band_high", "predictions", "predicted", "observed"]',
    )
    rows = serializers.ListField(
        child=serializers.ListField(child=serializers.FloatField()),
        help_text="per probability band of the known predictions: its bounds, how many, their "
        "mean probability and the share that failed",
    )


class PerformanceSerializer(serializers.Serializer):
    model_id = serializers.IntegerField()
    job_id = serializers.IntegerField(
        allow_null=True, help_text="the model-performance job it comes from; null: none yet"
    )
    computed_at = serializers.DateTimeField(allow_null=True)
    threshold = serializers.FloatField(allow_null=True)
    horizon_days = serializers.IntegerField(allow_null=True)
    last_day = serializers.CharField(allow_null=True, help_text="the alarms' last day")
    days = PerformanceDaySerializer(many=True)
    totals = PerformanceTotalsSerializer(allow_null=True)
    calibration = CalibrationSerializer(allow_null=True)


class DriftFeatureSerializer(serializers.Serializer):
    feature = serializers.CharField()
    psi = serializers.FloatField(help_text="population-stability index against the reference")
    bar = serializers.FloatField(
        help_text="above it the feature has drifted: the threshold, or what chance alone "
        "reaches one day in a thousand for a fleet this small, whichever is larger"
    )


class DriftDaySerializer(serializers.Serializer):
    day = serializers.CharField(help_text="the scored day, YYYY-MM-DD")
    job_id = serializers.IntegerField(help_text="the job whose score step measured it")
    scored_at = serializers.CharField(allow_null=True)
    rows = serializers.IntegerField(allow_null=True, help_text="the equipment scored that day")
    max_psi = serializers.FloatField(allow_null=True)
    drifted = serializers.ListField(
        child=serializers.CharField(), help_text="the features whose PSI is above their bar"
    )
    features = DriftFeatureSerializer(many=True, help_text="every feature, largest PSI first")


class DriftReferenceSerializer(serializers.Serializer):
    part = serializers.ChoiceField(
        choices=["test", "train"],
        help_text="the model's test part (the days after its training), else its training part",
    )
    rows = serializers.IntegerField()


class DriftSerializer(serializers.Serializer):
    model_id = serializers.IntegerField()
    threshold = serializers.FloatField(help_text="PSI above it: a feature has drifted")
    reference = DriftReferenceSerializer(
        allow_null=True, help_text="null: the model was trained without one (no drift)"
    )
    days = DriftDaySerializer(many=True, help_text="the newest 30 scored days, oldest first")
