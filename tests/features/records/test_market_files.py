"""The market files: every shipped dataset belongs to one market by role, and a bad file is refused
with the file and the field named."""

from pathlib import Path

import pytest

from marketplace.features.records.source_opendata.dataset import load_datasets
from marketplace.features.records.source_opendata.markets import MARKETS_DIR, load_markets, market_of, markets


def test_every_dataset_but_the_price_index_belongs_to_exactly_one_market():
    datasets = load_datasets()
    owners = {d: [m.id for m in markets().values() if d in (*m.roll, *m.sales, *m.lists)] for d in datasets}
    assert {d: o for d, o in owners.items() if len(o) != 1} == {"fhfa-hpi-zip3": []}


def test_cook_county_names_its_roll_sales_and_lists():
    cook = markets()["cook-county-il"]
    assert cook.name == "Cook County, IL" and cook.parcel_id == "cook_pin"
    assert "cook-ccao-parcel-addresses" in cook.roll
    assert cook.sales == ("cook-ccao-parcel-sales",)
    assert cook.role_of("cook-treasurer-scavenger-sale") == "lists"
    assert market_of("cook-treasurer-annual-tax-sale") is cook
    assert market_of("fhfa-hpi-zip3") is None


def test_baltimore_has_no_roll():
    baltimore = markets()["baltimore-city-md"]
    assert baltimore.roll == () and baltimore.county == "Baltimore City"


def _write(folder: Path, name: str, body: str) -> None:
    (folder / f"{name}.toml").write_text(body, encoding="utf-8")


GOOD = """id = "{id}"
name = "Test, IL"
county = "Test County"
state = "IL"
parcel_id = ""
roll_publisher = ""
[roles]
roll = []
sales = []
lists = [{lists}]
price_index = []
"""


def test_a_dataset_in_two_markets_is_refused(tmp_path):
    _write(tmp_path, "a-one", GOOD.format(id="a-one", lists='"chi-vacant-buildings-violations"'))
    _write(tmp_path, "b-two", GOOD.format(id="b-two", lists='"chi-vacant-buildings-violations"'))
    with pytest.raises(ValueError, match="b-two.toml: chi-vacant-buildings-violations already belongs to market a-one"):
        load_markets(tmp_path)


def test_a_roll_that_is_not_an_assessment_dataset_is_refused(tmp_path):
    body = GOOD.format(id="a-one", lists="").replace('roll = []', 'roll = ["chi-vacant-buildings-violations"]')
    _write(tmp_path, "a-one", body.replace('roll_publisher = ""', 'roll_publisher = "X"'))
    with pytest.raises(ValueError, match="a-one.toml: roles.roll: chi-vacant-buildings-violations is a vacant dataset"):
        load_markets(tmp_path)


def test_an_unknown_dataset_is_refused(tmp_path):
    _write(tmp_path, "a-one", GOOD.format(id="a-one", lists='"no-such-dataset"'))
    with pytest.raises(ValueError, match=r"a-one.toml: roles.lists: no dataset file no-such-dataset.toml"):
        load_markets(tmp_path)


def test_the_file_name_is_the_id(tmp_path):
    _write(tmp_path, "a-one", GOOD.format(id="other", lists=""))
    with pytest.raises(ValueError, match="a-one.toml: id: 'other' is not the file's name"):
        load_markets(tmp_path)


def test_the_shipped_folder_is_the_default():
    assert load_markets(MARKETS_DIR) == markets()
