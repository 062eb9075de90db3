"""The dashboard's Avg ROI card says it averages estimates (every lead's ROI is an estimate)."""

from marketplace.platform import texts as messages
from marketplace.features.dashboard.page import dashboard_data


def test_the_avg_roi_card_says_it_averages_estimated_rois():
    rendered = str(dashboard_data())
    assert messages.AVG_ROI_HINT == "Average of estimated ROIs (unlocked leads with one)"
    start = rendered.index('"Avg ROI"')
    assert messages.AVG_ROI_HINT in rendered[start:start + 2000]
