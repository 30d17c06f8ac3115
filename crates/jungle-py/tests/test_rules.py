import pickle

import pytest

import jungle


def test_option_string_is_parsed_and_written_canonically():
    rules = jungle.Rules("modern,dog-swims=true")
    assert str(rules) == "lion-tiger=equal,dog-swims=true"
    assert rules.options["lion-tiger"] == "equal"
    assert rules.options["dog-swims"] == "true"
    assert rules.options["repetition-draw"] == "3"
    assert not rules.is_standard
    assert jungle.Rules() == jungle.Rules("") == jungle.Rules("standard")
    assert jungle.Rules().is_standard
    assert jungle.Rules(str(rules)) == rules
    assert hash(jungle.Rules(str(rules))) == hash(rules)


def test_unknown_option_lists_the_valid_ones():
    with pytest.raises(jungle.RulesError) as err:
        jungle.Rules("tiger-swims=true")
    assert "valid: elephant-captures-rat" in str(err.value)
    assert isinstance(err.value, ValueError)


def test_bad_value_lists_the_valid_values():
    with pytest.raises(ValueError, match="cannot be \"maybe\""):
        jungle.Rules("dog-swims=maybe")
    with pytest.raises(ValueError, match="must stand first"):
        jungle.Rules("dog-swims=true,modern")


def test_describe_and_presets_list_every_option():
    names = [name for name, _default, _values, _help in jungle.Rules.describe()]
    assert names == list(jungle.Rules().options)
    assert jungle.Rules.presets()["modern"] == "lion-tiger=equal"
    for preset in jungle.Rules.presets():
        jungle.Rules(preset)


def test_rules_pickle_round_trip():
    rules = jungle.Rules("leiden")
    assert pickle.loads(pickle.dumps(rules)) == rules
    assert repr(rules) == "Rules('land-rat-captures-water-rat=true')"
