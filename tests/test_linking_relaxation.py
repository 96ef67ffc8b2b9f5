"""Repairs of imperfect phrase graph patterns (linking/relaxation.py): comparisons left in relation
phrases, superlatives left as comparison values. Patterns are our own."""

from __future__ import annotations

from linking.relaxation import (
    counted_as_attribute,
    is_count_attribute,
    named_as_itself,
    read_as_classes,
    relax,
)
from understanding.pgp import Comparison, Ordering, PhraseGraphPattern


def test_a_comparative_relation_with_a_value_becomes_a_filter() -> None:
    pattern = relax(PhraseGraphPattern.from_text("list :: ?u1 | is a | orchestras ; ?u1 | founded after | 2005"))
    assert pattern.to_text() == "list :: ?u1 | is a | orchestras ; ?u1 | founded | ?u2 :: filter ?u2 > 2005"
    weigh = relax(PhraseGraphPattern.from_text("count :: ?u1 | weighs less than | 18.5"))
    assert weigh.comparisons == (Comparison("?unknown2", "<", "18.5"),) and weigh.triples[0].relation == "weighs"


def test_a_compared_values_comparative_relation_names_the_attribute_it_grades() -> None:
    heavier = relax(PhraseGraphPattern.from_text("boolean :: Coil Resonator | heavier | ?u1 :: filter ?u1 > 10"))
    assert heavier.to_text() == "boolean :: Coil Resonator | weight | ?u1 :: filter ?u1 > 10"
    cheaper = relax(PhraseGraphPattern.from_text("list :: ?u1 | is a | products ; ?u1 | more expensive | ?u2 :: filter ?u2 > 5"))
    assert cheaper.triples[1].relation == "price"
    higher = PhraseGraphPattern.from_text("list :: ?u1 | area codes | ?u2 ; ?u2 | higher | ?u3 :: filter ?u3 > 900")
    assert relax(higher) is higher  # "higher than 900" is any greater number, not a height


def test_a_superlative_comparison_value_becomes_an_ordering() -> None:
    pattern = relax(PhraseGraphPattern.from_text("list :: ?u1 | is a | song ; ?u1 | sales | ?u2 :: filter ?u2 > highest"))
    assert pattern.comparisons == () and pattern.ordering == Ordering("?unknown2", descending=True, limit=1)


def test_sound_patterns_are_left_alone() -> None:
    for text in ("list :: ?u1 | founded | ?u2 :: filter ?u2 > 2005", "list :: ?u1 | born in | Paris",
                 "list :: ?u1 | released after | Thriller"):
        pattern = PhraseGraphPattern.from_text(text)
        assert relax(pattern) is pattern


def test_a_named_node_read_as_a_class_becomes_a_typed_unknown() -> None:
    pattern = read_as_classes(PhraseGraphPattern.from_text("avg :: ?u1 | age | conductors"), ["conductors"])
    assert pattern.to_text() == "avg :: ?u1 | age | ?u2 ; ?u2 | is a | conductors"


def test_a_superlative_adjective_names_its_attribute_and_direction() -> None:
    oldest = relax(PhraseGraphPattern.from_text("list :: ?u1 | is a | teachers ; ?u1 | oldest | ?u2"))
    assert oldest.to_text() == "list :: ?u1 | is a | teachers ; ?u1 | age | ?u2 :: order ?u2 desc 1"
    sorted_all = relax(PhraseGraphPattern.from_text("list :: ?u1 | youngest | ?u2 :: order ?u2 desc"))
    assert sorted_all.ordering == Ordering("?unknown2", descending=False, limit=None)  # the word decides the way


def test_the_thing_a_superlative_answer_hangs_off_becomes_the_answer() -> None:
    pattern = relax(PhraseGraphPattern.from_text("list :: ?u1 | oldest | ?u2 ; ?u2 | is a | conductor"))
    assert pattern.to_text() == "list :: ?u1 | age | ?u3 ; ?u1 | is a | conductor :: order ?u3 desc 1"


def test_a_hyphenated_superlative_names_its_attribute() -> None:
    pattern = relax(PhraseGraphPattern.from_text("list :: ?u1 | lowest-priced | ?u2 ; ?u2 | is a | item"))
    assert pattern.to_text() == "list :: ?u1 | priced | ?u3 ; ?u1 | is a | item :: order ?u3 asc 1"
    assert relax(PhraseGraphPattern.from_text("list :: ?u1 | most-cited | ?u2")).ordering is None  # "most" needs its noun


def test_a_per_group_count_is_also_read_as_a_stored_count() -> None:
    most = PhraseGraphPattern.from_text("list :: ?u1 | shop | ?u2 ; ?u2 | is a | products :: order count ?u2 desc 1")
    alternative = counted_as_attribute(most)
    assert alternative is not None and alternative.thing == "products"
    assert alternative.pattern.to_text() == "list :: ?u1 | number of products | ?u2 :: order ?u2 desc 1"
    assert alternative.edge.relation == "number of products"
    asked = counted_as_attribute(most, "Which shop has the most products?", "shop")  # the edge named the asked kind
    assert asked.pattern.to_text() == "list :: ?u1 | is a | shop ; ?u1 | number of products | ?u2 :: order ?u2 desc 1"
    assert counted_as_attribute(most, "Which shop has the most products?", "products").pattern == alternative.pattern
    having = PhraseGraphPattern.from_text(
        "list :: ?u1 | is a | shops ; ?u1 | have | ?u2 ; ?u2 | is a | products :: filter count ?u2 > 100")
    assert counted_as_attribute(having).pattern.to_text() == (
        "list :: ?u1 | is a | shops ; ?u1 | number of products | ?u2 :: filter ?u2 > 100")
    for text in ("list :: ?u1 | shop | ?u2 :: order count ?u2 desc 1",  # no class phrase: nothing to name
                 "list :: ?u1 | is a | shops ; ?u1 | number products | ?u2 :: order ?u2 desc 1"):
        assert counted_as_attribute(PhraseGraphPattern.from_text(text)) is None
    rooms = counted_as_attribute(PhraseGraphPattern.from_text(  # "Which apartments have the most rooms?": no class
        "list :: ?u1 | is a | apartments ; ?u1 | rooms | ?u2 :: order count ?u2 desc 1"))
    assert rooms is not None and rooms.thing == "rooms" and rooms.counted_edge.relation == "rooms"
    assert rooms.pattern.to_text() == "list :: ?u1 | is a | apartments ; ?u1 | number of rooms | ?u2 :: order ?u2 desc 1"
    assert counted_as_attribute(most).counted_edge is None
    staff = PhraseGraphPattern.from_text("list :: ?u1 | is a | museum ; ?u1 | staff | ?u2 :: order count ?u2 asc 1")
    assert counted_as_attribute(staff) is None  # a singular edge: not a count unless the question says so
    fewest = counted_as_attribute(staff, "Which museum has the fewest staff?")  # stored as `num_of_staff`
    assert fewest is not None and fewest.pattern.to_text() == (
        "list :: ?u1 | is a | museum ; ?u1 | number of staff | ?u2 :: order ?u2 asc 1")
    assert counted_as_attribute(staff, "Which museum has the oldest staff?") is None
    assert is_count_attribute("number products", "products") and is_count_attribute("num of staff", "staff")
    assert is_count_attribute("employee count", "employees")
    assert not is_count_attribute("shop id", "products") and not is_count_attribute("products", "products")
    assert not is_count_attribute("number of staff", "products")
    assert not is_count_attribute("flight number", "flights")  # a number after the thing names one (`flightno`)


def test_an_unknown_named_by_a_found_thing_is_that_thing() -> None:
    """"the address of the property named 'park'": the property found by its name is the thing asked about."""
    named = PhraseGraphPattern.from_text("list :: ?u1 | address | ?u2 ; ?u2 | is a | property ; ?u2 | named | park")
    assert named_as_itself(named, {"park"}).to_text() == "list :: ?u1 | address | park"
    assert named_as_itself(named, set()) is None  # "park" found as no thing: the pattern stands
    asked = PhraseGraphPattern.from_text("list :: ?u1 | is a | property ; ?u1 | named | park")
    assert named_as_itself(asked, {"park"}) is None  # the answer itself is named: nothing else asks about it
    ordered = PhraseGraphPattern.from_text(
        "list :: ?u1 | address | ?u2 ; ?u2 | called | park ; ?u2 | size | ?u3 :: order ?u3 desc 1")
    assert named_as_itself(ordered, {"park"}).to_text() == "list :: ?u1 | address | park ; park | size | ?u3 :: order ?u3 desc 1"
