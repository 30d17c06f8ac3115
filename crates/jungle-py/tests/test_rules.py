import pickle

import pytest

import doushouqi as dsq


def test_option_string_is_parsed_and_written_canonically():
    rules = dsq.Rules("modern,dog-swims=true")
    assert str(rules) == "lion-tiger=equal,dog-swims=true"
    assert rules.options["lion-tiger"] == "equal"
    assert rules.options["dog-swims"] == "true"
    assert rules.options["repetition-draw"] == "3"
    assert not rules.is_standard
    assert dsq.Rules() == dsq.Rules("") == dsq.Rules("standard")
    assert dsq.Rules().is_standard
    assert dsq.Rules(str(rules)) == rules
    assert hash(dsq.Rules(str(rules))) == hash(rules)


def test_unknown_option_lists_the_valid_ones():
    with pytest.raises(dsq.RulesError) as err:
        dsq.Rules("tiger-swims=true")
    assert "valid: elephant-captures-rat" in str(err.value)
    assert isinstance(err.value, ValueError)


def test_bad_value_lists_the_valid_values():
    with pytest.raises(ValueError, match="cannot be \"maybe\""):
        dsq.Rules("dog-swims=maybe")
    with pytest.raises(ValueError, match="must stand first"):
        dsq.Rules("dog-swims=true,modern")


def test_describe_and_presets_list_every_option():
    names = [name for name, _default, _values, _help in dsq.Rules.describe()]
    assert names == list(dsq.Rules().options)
    assert dsq.Rules.presets()["modern"] == "lion-tiger=equal"
    for preset in dsq.Rules.presets():
        dsq.Rules(preset)


def test_rules_pickle_round_trip():
    rules = dsq.Rules("leiden")
    assert pickle.loads(pickle.dumps(rules)) == rules
    assert repr(rules) == "Rules('land-rat-captures-water-rat=true')"
