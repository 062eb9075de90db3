"""The error every open-data adapter raises: it names the dataset and what failed."""

from __future__ import annotations

from marketplace.features.scrape import SourceError


class DatasetError(SourceError):
    """Reading a dataset failed: "chi-vacant-buildings-violations: the portal returned HTTP 500 ..."."""

    def __init__(self, dataset_id: str, problem: str) -> None:
        super().__init__(f"{dataset_id}: {problem}")
        self.dataset_id = dataset_id
        self.problem = problem
