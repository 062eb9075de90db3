"""Loaded by every Python process of the prod-shape test server (it is on their
PYTHONPATH, never on the app's). Two hooks on ``marketplace.features.records.jobs_scheduler``,
applied when that module is imported:

1. Its log lines ("lead refresh: {...}") go to stderr, prefixed with the
   process id, so a test can see that each worker ran the refresh. The app
   logs them at INFO, which the server does not print.
2. The start-up catch-up is due only after 08:00 Pacific. So that the smoke
   test passes at any hour, the catch-up check reads the clock as 08:00
   Pacific (same date) when it is earlier. Only that decision sees the shifted
   clock; the run itself and its run key use the real time. After 08:00
   nothing changes.
"""

import importlib.abc
import importlib.machinery
import logging
import sys

TARGET = "marketplace.features.records.jobs_scheduler"


def _hook(module) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("lv-smoke pid=%(process)d %(name)s: %(message)s"))
    logger = logging.getLogger(module.log.name)
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)

    check = module.due_for_catch_up

    def due_for_catch_up(now=None):
        now = now or module.utcnow()
        eight = now.astimezone(module.PACIFIC).replace(hour=module.REFRESH_HOUR, minute=0, second=0, microsecond=0)
        return check(max(now, eight))

    module.due_for_catch_up = due_for_catch_up


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name != TARGET:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return spec
        run = spec.loader.exec_module

        def exec_module(module):
            run(module)
            _hook(module)

        spec.loader.exec_module = exec_module
        return spec


sys.meta_path.insert(0, _Finder())
