#!/usr/bin/env python3
"""Builds gateway/data/demo.ttl, the graph of the embedded store, from data shipped in PyPI packages.

Sources: pycountry (ISO 3166 countries and subdivisions, ISO 4217 currencies, ISO 639 languages;
LGPL-2.1 package, data from the Debian iso-codes project) and Babel (Unicode CLDR: English display
names, official and spoken languages per territory, currencies per territory; Unicode licence).
The output is deterministic for given package versions: `python scripts/build_demo_graph.py`.
"""

from __future__ import annotations

import argparse
import datetime
import re
import unicodedata
from collections import defaultdict
from pathlib import Path

import babel
import babel.numbers
import pycountry
import pyoxigraph as ox
from babel.core import Locale, get_global

OUT = Path(__file__).resolve().parent.parent / "gateway" / "data" / "demo.ttl"
RES = "http://kgqa.local/demo/resource/"
ONT = "http://kgqa.local/demo/ontology/"
RDF_TYPE = ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
SKOS_ALT = ox.NamedNode("http://www.w3.org/2004/02/skos/core#altLabel")
XSD_INTEGER = ox.NamedNode("http://www.w3.org/2001/XMLSchema#integer")
XSD_DECIMAL = ox.NamedNode("http://www.w3.org/2001/XMLSchema#decimal")
LABEL = ox.NamedNode(RDFS + "label")
COMMENT = ox.NamedNode(RDFS + "comment")
DOMAIN = ox.NamedNode(RDFS + "domain")
RANGE = ox.NamedNode(RDFS + "range")
OWL_CLASS = ox.NamedNode("http://www.w3.org/2002/07/owl#Class")
OWL_OBJECT_PROPERTY = ox.NamedNode("http://www.w3.org/2002/07/owl#ObjectProperty")
OWL_DATATYPE_PROPERTY = ox.NamedNode("http://www.w3.org/2002/07/owl#DatatypeProperty")
CLDR_DATE = datetime.date(2025, 1, 1)  # currencies in use on this day, so rebuilding gives the same graph
SPOKEN_MIN_PERCENT = 5.0  # a non-official language counts as spoken when this share of people speak it

CLASSES = {"Country": "country", "Currency": "currency", "Language": "language"}
# local name -> (label, domain, range or None for literals, comment)
PROPERTIES: dict[str, tuple[str, str, str | None, str]] = {
    "currency": ("currency", "Country", "Currency", "a currency that is legal tender in the country"),
    "officialLanguage": ("official language", "Country", "Language", "a language with official status in the country"),
    "regionalOfficialLanguage": ("regional official language", "Country", "Language",
                                 "a language that is official in a region of the country"),
    "spokenLanguage": ("spoken language", "Country", "Language",
                       f"a language without official status spoken by at least {SPOKEN_MIN_PERCENT:g}% of the people"),
    "officialName": ("official name", "Country", None, "the full official name of the country"),
    "alpha2Code": ("ISO alpha-2 code", "Country", None, "two-letter ISO 3166-1 country code"),
    "alpha3Code": ("ISO alpha-3 code", "Country", None, "three-letter ISO 3166-1 country code"),
    "numericCode": ("ISO numeric code", "Country", None, "ISO 3166-1 numeric country code"),
    "numberOfSubdivisions": ("number of subdivisions", "Country", None,
                             "how many ISO 3166-2 subdivisions (regions, states, provinces) the country has"),
    "currencyCode": ("currency code", "Currency", None, "three-letter ISO 4217 currency code"),
    "currencyNumericCode": ("currency numeric code", "Currency", None, "ISO 4217 numeric currency code"),
    "currencySymbol": ("currency symbol", "Currency", None, "the symbol used for the currency in English"),
    "decimalDigits": ("decimal digits", "Currency", None, "number of digits after the decimal separator"),
    "languageCode": ("language code", "Language", None, "ISO 639 code of the language"),
}


def local_name(label: str) -> str:
    """A readable IRI local name from an English label: `Côte d'Ivoire` -> `Cote_d_Ivoire`."""
    ascii_text = unicodedata.normalize("NFKD", label).encode("ascii", "ignore").decode()
    return re.sub(r"[^A-Za-z0-9]+", "_", ascii_text).strip("_") or "x"


class GraphBuilder:
    """Collects triples and gives every resource a unique readable IRI."""

    def __init__(self) -> None:
        self.triples: set[ox.Triple] = set()
        self._taken: set[str] = set()

    def resource(self, label: str, qualifier: str) -> ox.NamedNode:
        name = local_name(label)
        if name in self._taken:
            name = f"{name}_{local_name(qualifier)}"
        self._taken.add(name)
        return ox.NamedNode(RES + name)

    def add(self, s: ox.NamedNode, p: ox.NamedNode, o: ox.NamedNode | ox.Literal) -> None:
        self.triples.add(ox.Triple(s, p, o))


def ont(name: str) -> ox.NamedNode:
    return ox.NamedNode(ONT + name)


def english(text: str) -> ox.Literal:
    return ox.Literal(text, language="en")


def integer(value: int) -> ox.Literal:
    return ox.Literal(str(value), datatype=XSD_INTEGER)


def build() -> GraphBuilder:
    graph = GraphBuilder()
    en = Locale("en")
    for name, label in CLASSES.items():
        graph.add(ont(name), RDF_TYPE, OWL_CLASS)
        graph.add(ont(name), LABEL, english(label))
    for name, (label, domain, range_, comment) in PROPERTIES.items():
        graph.add(ont(name), RDF_TYPE, OWL_OBJECT_PROPERTY if range_ else OWL_DATATYPE_PROPERTY)
        graph.add(ont(name), LABEL, english(label))
        graph.add(ont(name), COMMENT, english(comment))
        graph.add(ont(name), DOMAIN, ont(domain))
        if range_:
            graph.add(ont(name), RANGE, ont(range_))

    subdivisions: dict[str, int] = defaultdict(int)
    for sub in pycountry.subdivisions:
        subdivisions[sub.country_code] += 1

    countries = sorted(pycountry.countries, key=lambda c: c.alpha_2)
    country_iri: dict[str, ox.NamedNode] = {}
    for country in countries:
        label = en.territories.get(country.alpha_2) or getattr(country, "common_name", None) or country.name
        iri = graph.resource(label, country.alpha_3)
        country_iri[country.alpha_2] = iri
        graph.add(iri, RDF_TYPE, ont("Country"))
        graph.add(iri, LABEL, english(label))
        for alt in {country.name, getattr(country, "common_name", None)} - {label, None}:
            graph.add(iri, SKOS_ALT, english(alt))
        official = getattr(country, "official_name", None)
        if official:
            graph.add(iri, ont("officialName"), english(official))
        graph.add(iri, ont("alpha2Code"), ox.Literal(country.alpha_2))
        graph.add(iri, ont("alpha3Code"), ox.Literal(country.alpha_3))
        graph.add(iri, ont("numericCode"), integer(int(country.numeric)))
        graph.add(iri, ont("numberOfSubdivisions"), integer(subdivisions.get(country.alpha_2, 0)))

    fractions = get_global("currency_fractions")
    currency_iri: dict[str, ox.NamedNode] = {}

    def currency(code: str) -> ox.NamedNode:
        if code not in currency_iri:
            iso = pycountry.currencies.get(alpha_3=code)
            label = en.currencies.get(code) or (iso.name if iso else code)
            iri = graph.resource(label, code)
            currency_iri[code] = iri
            graph.add(iri, RDF_TYPE, ont("Currency"))
            graph.add(iri, LABEL, english(label))
            if iso is not None and iso.name != label:
                graph.add(iri, SKOS_ALT, english(iso.name))
            graph.add(iri, ont("currencyCode"), ox.Literal(code))
            if iso is not None and getattr(iso, "numeric", None):
                graph.add(iri, ont("currencyNumericCode"), integer(int(iso.numeric)))
            symbol = babel.numbers.get_currency_symbol(code, locale="en")
            if symbol and symbol != code:
                graph.add(iri, ont("currencySymbol"), ox.Literal(symbol))
            digits = fractions.get(code, fractions["DEFAULT"])[0]
            graph.add(iri, ont("decimalDigits"), integer(digits))
        return currency_iri[code]

    language_iri: dict[str, ox.NamedNode] = {}

    def language(code: str) -> ox.NamedNode | None:
        if code not in language_iri:
            label = en.languages.get(code)
            if not label:
                return None
            iri = graph.resource(label, code)
            language_iri[code] = iri
            graph.add(iri, RDF_TYPE, ont("Language"))
            graph.add(iri, LABEL, english(label))
            graph.add(iri, ont("languageCode"), ox.Literal(code))
        return language_iri[code]

    territory_languages = get_global("territory_languages")
    for alpha2, iri in country_iri.items():
        for code in babel.numbers.get_territory_currencies(alpha2, start_date=CLDR_DATE, tender=True):
            graph.add(iri, ont("currency"), currency(code))
        for code, info in sorted(territory_languages.get(alpha2, {}).items()):
            status = info.get("official_status")
            percent = float(info.get("population_percent") or 0.0)
            if status in ("official", "de_facto_official"):
                predicate = "officialLanguage"
            elif status == "official_regional":
                predicate = "regionalOfficialLanguage"
            elif percent >= SPOKEN_MIN_PERCENT:
                predicate = "spokenLanguage"
            else:
                continue
            target = language(code.split("_")[0])  # zh_Hant and zh_Hans are both Chinese
            if target is not None:
                graph.add(iri, ont(predicate), target)
    return graph


HEADER = """# Demo graph of the kgqa gateway's embedded store: countries, currencies and languages.
# Built by scripts/build_demo_graph.py from pycountry {pycountry} (ISO 3166/4217/639 data of the Debian
# iso-codes project, LGPL-2.1) and Babel {babel} (Unicode CLDR {cldr} data, Unicode License v3:
# https://www.unicode.org/license.txt). {triples} triples. Do not edit by hand: rebuild it.
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    graph = build()
    triples = sorted(graph.triples, key=lambda t: (str(t.subject), str(t.predicate), str(t.object)))
    body = ox.serialize(triples, format=ox.RdfFormat.TURTLE, prefixes={
        "res": RES, "ont": ONT, "rdfs": RDFS, "skos": "http://www.w3.org/2004/02/skos/core#",
        "owl": "http://www.w3.org/2002/07/owl#", "xsd": "http://www.w3.org/2001/XMLSchema#",
    })
    from importlib.metadata import version

    header = HEADER.format(pycountry=version("pycountry"), babel=babel.__version__,
                           cldr=get_global("cldr").get("version", "?"), triples=len(triples))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(header.encode() + body)
    print(f"wrote {len(triples)} triples to {args.out}")


if __name__ == "__main__":
    main()
