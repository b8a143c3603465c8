"""The retraining's rolling cut-off, one rule for the console (the submit's check) and the
retrain script on the Spark driver (the standard library only)."""

from __future__ import annotations

from datetime import date, timedelta


def rolling_cutoff(last_day: date, horizon_days: int, test_days: int) -> date:
    """The cut-off whose test part is the newest `test_days` labelled days. A day D is
    labelled when D + horizon_days is inside the data, so the last labelled day is
    `last_day - horizon_days`, and the test part runs from the cut-off to it."""
    return last_day - timedelta(days=horizon_days + test_days - 1)
