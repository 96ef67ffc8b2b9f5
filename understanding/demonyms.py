"""The country a people's adjective or a short name names ("Irish suppliers" -> Ireland, "the UK" ->
United Kingdom), for entity phrases that name nothing in the graph: questions say "French", graphs
store "France" (or an IRI labelled so).

General English, the same for every graph; the adjective is matched case-insensitively, singular or
plural ("Germans"), and the country is then searched like any other name.
"""

from __future__ import annotations

_PAIRS = """
afghan:Afghanistan; albanian:Albania; algerian:Algeria; american:United States; andorran:Andorra; angolan:Angola;
argentine:Argentina; argentinian:Argentina; armenian:Armenia; australian:Australia; austrian:Austria; azerbaijani:Azerbaijan;
bahamian:Bahamas; bahraini:Bahrain; bangladeshi:Bangladesh; barbadian:Barbados; belarusian:Belarus; belgian:Belgium;
belizean:Belize; beninese:Benin; bhutanese:Bhutan; bolivian:Bolivia; bosnian:Bosnia and Herzegovina; botswanan:Botswana;
brazilian:Brazil; british:United Kingdom; bruneian:Brunei; bulgarian:Bulgaria; burkinabe:Burkina Faso; burmese:Myanmar;
burundian:Burundi; cambodian:Cambodia; cameroonian:Cameroon; canadian:Canada; chadian:Chad; chilean:Chile;
chinese:China; colombian:Colombia; congolese:Congo; costa rican:Costa Rica; croatian:Croatia; cuban:Cuba;
cypriot:Cyprus; czech:Czech Republic; danish:Denmark; djiboutian:Djibouti; dominican:Dominican Republic; dutch:Netherlands;
ecuadorian:Ecuador; egyptian:Egypt; emirati:United Arab Emirates; english:England; eritrean:Eritrea; estonian:Estonia;
ethiopian:Ethiopia; fijian:Fiji; filipino:Philippines; finnish:Finland; french:France; gabonese:Gabon;
gambian:Gambia; georgian:Georgia; german:Germany; ghanaian:Ghana; greek:Greece; guatemalan:Guatemala;
guinean:Guinea; guyanese:Guyana; haitian:Haiti; honduran:Honduras; hungarian:Hungary; icelandic:Iceland;
indian:India; indonesian:Indonesia; iranian:Iran; iraqi:Iraq; irish:Ireland; israeli:Israel;
italian:Italy; ivorian:Ivory Coast; jamaican:Jamaica; japanese:Japan; jordanian:Jordan; kazakh:Kazakhstan;
kenyan:Kenya; korean:South Korea; south korean:South Korea; north korean:North Korea; kosovar:Kosovo; kuwaiti:Kuwait;
kyrgyz:Kyrgyzstan; lao:Laos; laotian:Laos; latvian:Latvia; lebanese:Lebanon; liberian:Liberia;
libyan:Libya; liechtensteiner:Liechtenstein; lithuanian:Lithuania; luxembourgish:Luxembourg; macedonian:North Macedonia; malagasy:Madagascar;
malawian:Malawi; malaysian:Malaysia; maldivian:Maldives; malian:Mali; maltese:Malta; mauritanian:Mauritania;
mauritian:Mauritius; mexican:Mexico; moldovan:Moldova; monegasque:Monaco; mongolian:Mongolia; montenegrin:Montenegro;
moroccan:Morocco; mozambican:Mozambique; namibian:Namibia; nepalese:Nepal; nepali:Nepal; new zealand:New Zealand;
nicaraguan:Nicaragua; nigerien:Niger; nigerian:Nigeria; norwegian:Norway; omani:Oman; pakistani:Pakistan;
palestinian:Palestine; panamanian:Panama; paraguayan:Paraguay; peruvian:Peru; polish:Poland; portuguese:Portugal;
qatari:Qatar; romanian:Romania; russian:Russia; rwandan:Rwanda; salvadoran:El Salvador; saudi:Saudi Arabia;
scottish:Scotland; senegalese:Senegal; serbian:Serbia; sierra leonean:Sierra Leone; singaporean:Singapore; slovak:Slovakia;
slovenian:Slovenia; somali:Somalia; south african:South Africa; spanish:Spain; sri lankan:Sri Lanka; sudanese:Sudan;
surinamese:Suriname; swedish:Sweden; swiss:Switzerland; syrian:Syria; taiwanese:Taiwan; tajik:Tajikistan;
tanzanian:Tanzania; thai:Thailand; togolese:Togo; tunisian:Tunisia; turkish:Turkey; turkmen:Turkmenistan;
ugandan:Uganda; ukrainian:Ukraine; uruguayan:Uruguay; uzbek:Uzbekistan; venezuelan:Venezuela; vietnamese:Vietnam;
welsh:Wales; yemeni:Yemen; zambian:Zambia; zimbabwean:Zimbabwe;
uk:United Kingdom; u.k.:United Kingdom; britain:United Kingdom; great britain:United Kingdom; usa:United States;
u.s.a.:United States; us:United States; u.s.:United States; uae:United Arab Emirates; holland:Netherlands
"""

COUNTRY_OF: dict[str, str] = dict(
    (adjective.strip(), country.strip()) for adjective, country in
    (pair.split(":") for pair in _PAIRS.replace("\n", " ").split(";") if pair.strip()))


def country_of(phrase: str) -> str | None:
    """The country of a people's adjective or noun ("Irish", "Swiss", "Germans") or of a short name
    ("UK", "USA"), else None."""
    words = " ".join(phrase.lower().split())
    return COUNTRY_OF.get(words) or (COUNTRY_OF.get(words[:-1]) if words.endswith("s") else None)


# US states and their postal codes: tables often store a state as its code ("TX") where questions name it ("Texas")
_STATES = """
alabama:AL; alaska:AK; arizona:AZ; arkansas:AR; california:CA; colorado:CO; connecticut:CT; delaware:DE;
district of columbia:DC; florida:FL; georgia:GA; hawaii:HI; idaho:ID; illinois:IL; indiana:IN; iowa:IA; kansas:KS;
kentucky:KY; louisiana:LA; maine:ME; maryland:MD; massachusetts:MA; michigan:MI; minnesota:MN; mississippi:MS;
missouri:MO; montana:MT; nebraska:NE; nevada:NV; new hampshire:NH; new jersey:NJ; new mexico:NM; new york:NY;
north carolina:NC; north dakota:ND; ohio:OH; oklahoma:OK; oregon:OR; pennsylvania:PA; rhode island:RI;
south carolina:SC; south dakota:SD; tennessee:TN; texas:TX; utah:UT; vermont:VT; virginia:VA; washington:WA;
west virginia:WV; wisconsin:WI; wyoming:WY
"""

STATE_CODE_OF: dict[str, str] = dict(
    (state.strip(), code.strip()) for state, code in
    (pair.split(":") for pair in _STATES.replace("\n", " ").split(";") if pair.strip()))


def state_code_of(phrase: str) -> str | None:
    """The postal code of a US state's name ("Texas" -> "TX", "New York" -> "NY"), else None."""
    return STATE_CODE_OF.get(" ".join(phrase.lower().split()))
