"""Execution of ranked candidate queries: concurrently within the endpoint's limit, best first, and
stopping as soon as no query still to run can beat the best answer found.

KGQAN (SIGMOD 2023, section 6) runs its top queries and keeps those whose answers pass the type
filter. Here each answered query gets an effective score: its Eq. 2 score minus the type filter's
penalty when its answers do not fit the expected type (the prediction may be wrong). Queries run in
score-ordered waves, so once the best effective score reaches the score of the next query in line,
no later query can win and execution stops (branch and bound) -- the same best answer with far
fewer requests. A request budget bounds the rest.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace

import pyoxigraph as ox

from gateway.endpoint import Endpoint
from gateway.errors import SparqlError
from gateway.sparql import Term
from linking.filtering import FilterOutcome
from linking.queries import FOUND_VAR, PASSED_VAR, TYPE_VAR, CandidateQuery
from understanding.pgp import QuestionForm

MATCH = "match"  # answered, and the answers fit the expected type
MISMATCH = "mismatch"  # answered, but no answer fits the expected type
EMPTY = "empty"
ERROR = "error"
SKIPPED = "skipped"  # not run: an earlier wave already answered
READABLE_MARGIN = 0.25  # how much score a query answering with values may lack against one answering with opaque IRIs


@dataclass
class ExecutedQuery:
    """One candidate query after execution, with its raw and filtered answers."""

    query: CandidateQuery
    rank: int
    status: str = SKIPPED
    answers: list[Term] = field(default_factory=list)  # after filtering
    raw_answers: list[Term] = field(default_factory=list)
    boolean: bool | None = None
    types: dict[str, list[str]] = field(default_factory=dict)
    filtered: FilterOutcome | None = None
    error: str | None = None
    elapsed_ms: float = 0.0
    truncated: bool = False
    zero_count: bool = False  # a COUNT that counted nothing: no answer, unless no reading counts more
    rows: list[tuple[Term, tuple[Term | None, ...]]] = field(default_factory=list)  # answer, its `columns`

    @property
    def effective_score(self) -> float:
        """The query's score less what its answers' type mismatch costs; None-like (-1) if unanswered."""
        if self.status not in (MATCH, MISMATCH):
            return -1.0
        return self.query.score - (self.filtered.penalty if self.filtered is not None else 0.0)

    def to_dict(self) -> dict[str, object]:
        out = self.query.to_dict()
        out["status"] = self.status
        if self.boolean is not None:
            out["answers"] = [self.boolean]
        else:
            out["answers"] = [a.value for a in self.answers[:20]]
            if len(self.answers) > 20:
                out["answers_total"] = len(self.answers)
        if self.error:
            out["error"] = self.error
        if self.status != SKIPPED:
            out["elapsed_ms"] = round(self.elapsed_ms, 2)
        return out


TypeCheck = Callable[[list[Term], dict[str, list[str]]], FilterOutcome | Awaitable[FilterOutcome]]


class QueryExecutor:
    """Runs candidate queries in waves of `concurrency`, best score first, until no query still to run
    can beat the best effective score found, `max_requests` queries have run, or `empty_limit`
    queries have run without any answer."""

    max_requests_default = 20

    def __init__(self, *, concurrency: int = 4, timeout_s: float = 10.0, boolean_budget: int = 8,
                 max_requests: int = max_requests_default, empty_limit: int | None = None) -> None:
        self.concurrency = concurrency
        self.timeout_s = timeout_s
        self.boolean_budget = boolean_budget
        self.max_requests = max_requests
        self.empty_limit = empty_limit  # stop once this many queries ran and none answered

    async def run(self, queries: Sequence[CandidateQuery], endpoint: Endpoint, check: TypeCheck,
                  *, deadline: float | None = None, requests_left: Callable[[], int] | None = None
                  ) -> list[ExecutedQuery]:
        """`requests_left`, when given, says how many requests the question may still send: a wave
        takes only as many queries (the best query always runs)."""
        executed = [ExecutedQuery(q, i) for i, q in enumerate(queries)]
        wave = max(1, min(self.concurrency, endpoint.config.max_concurrency))
        limit = min(len(executed), self.max_requests)
        boolean = bool(queries) and queries[0].form is QuestionForm.BOOLEAN
        if boolean:
            limit = min(limit, self.boolean_budget)
        for start in range(0, limit, wave):
            if deadline is not None and time.monotonic() > deadline:
                break
            batch = executed[start:min(start + wave, limit)]
            planned = len(batch)
            if requests_left is not None:  # the best query runs whatever is left
                batch = batch[:max(1 if start == 0 else 0, requests_left())]
                if not batch:
                    break
            await asyncio.gather(*(self._one(item, endpoint, check) for item in batch))
            if len(batch) < planned:
                break  # the question's requests are spent
            if boolean:
                if any(item.status == MATCH for item in batch):
                    break
                continue
            best = max((item.effective_score for item in executed[:start + len(batch)]), default=-1.0)
            following = start + len(batch)
            if best >= 0 and (following >= limit or best >= executed[following].query.score - 1e-9):
                break
            if best < 0 and self.empty_limit is not None and following >= self.empty_limit:
                break  # the reading finds nothing: its remaining requests are better spent on another
        return executed

    async def _one(self, item: ExecutedQuery, endpoint: Endpoint, check: TypeCheck) -> None:
        started = time.perf_counter()
        query = item.query
        try:
            if query.form is QuestionForm.BOOLEAN and query.result_var == PASSED_VAR:
                # a compared value: the query answers when the value is there, yes or no by the comparison
                row = (await endpoint.sparql.select(query.execution_sparql, timeout_s=self.timeout_s)).rows
                found, passed = (_count(row[0].get(FOUND_VAR)), _count(row[0].get(PASSED_VAR))) if row else (0, 0)
                item.boolean = passed > 0
                item.status = MATCH if found else EMPTY
                return
            if query.form is QuestionForm.BOOLEAN:
                item.boolean = await endpoint.sparql.ask(query.execution_sparql, timeout_s=self.timeout_s)
                item.status = MATCH if item.boolean else EMPTY
                return
            result = await endpoint.sparql.select(query.execution_sparql, timeout_s=self.timeout_s)
            item.truncated = result.truncated
            answers: dict[str, Term] = {}
            types: dict[str, list[str]] = {}
            rows: dict[tuple[str, ...], tuple[Term, tuple[Term | None, ...]]] = {}
            for row in result:
                term = row.get(query.result_var)
                if term is None:
                    continue
                answers.setdefault(term_key(term), term)
                if query.columns:
                    cells = tuple(row.get(column) for column in query.columns)
                    rows.setdefault((term_key(term), *(term_key(c) if c is not None else "" for c in cells)),
                                    (term, cells))
                kind = row.get(TYPE_VAR[1:])
                if isinstance(kind, ox.NamedNode) and not isinstance(term, ox.Literal):
                    types.setdefault(term.value, [])
                    if kind.value not in types[term.value]:
                        types[term.value].append(kind.value)
            item.raw_answers = list(answers.values())
            item.types = types
            item.rows = list(rows.values())
            if query.form.is_aggregate:
                counted = item.raw_answers
                item.raw_answers = [a for a in counted if not _is_zero_count(a, query.form)]
                item.rows = [r for r in item.rows if not _is_zero_count(r[0], query.form)]
                item.zero_count = query.form is QuestionForm.COUNT and bool(counted) and not item.raw_answers
            if not item.raw_answers:
                item.status = EMPTY
                return
            if query.form is QuestionForm.LIST:
                checked = check(item.raw_answers, types)
                outcome = await checked if inspect.isawaitable(checked) else checked
            else:
                outcome = FilterOutcome(item.raw_answers)
            item.filtered = outcome
            item.answers = outcome.kept if outcome.matched else item.raw_answers
            item.status = MATCH if outcome.matched else MISMATCH
        except SparqlError as exc:
            item.status = ERROR
            item.error = str(exc)
        finally:
            item.elapsed_ms = (time.perf_counter() - started) * 1000


def term_key(term: Term) -> str:
    """What tells answers apart: an IRI by its value, a literal with its datatype and language."""
    return term.value if not isinstance(term, ox.Literal) else str(term)


def _count(term: Term | None) -> int:
    """A COUNT or SUM cell as an int (0 when unbound, as SUM over no rows is in some engines)."""
    try:
        return int(float(term.value)) if isinstance(term, ox.Literal) else 0
    except ValueError:
        return 0


def _is_zero_count(term: Term, form: QuestionForm) -> bool:
    """A COUNT of 0 or an aggregate over nothing says the pattern found nothing: not an answer."""
    if not isinstance(term, ox.Literal):
        return False
    if form is QuestionForm.COUNT:
        return term.value.strip() in ("0", "0.0")
    return term.value.strip() == ""


def union_of_ties(chosen: ExecutedQuery, executed: Sequence[ExecutedQuery]) -> ExecutedQuery:
    """When other list queries answered with answers of the expected type and exactly the chosen one's
    score, the question does not tell them apart ("languages of Switzerland": spoken, official and
    regional official language all fit "languages"): the answer is the union of theirs, as one
    SPARQL UNION query. Ordered or limited queries and those with another answer variable stay apart."""
    def unitable(item: ExecutedQuery) -> bool:
        query = item.query
        return (item.status == MATCH and query.form is QuestionForm.LIST and query.answer_var == chosen.query.answer_var
                and not query.ordered and query.modifiers.startswith(" LIMIT") and query.sparql.startswith(f"SELECT DISTINCT {query.answer_var} WHERE"))

    if not unitable(chosen):
        return chosen
    ties = [e for e in executed if e is not chosen and unitable(e)
            and abs(e.effective_score - chosen.effective_score) < 1e-9]
    if not ties:
        return chosen
    group = [chosen, *ties]
    answers: dict[str, Term] = {}
    types: dict[str, list[str]] = {}
    for item in group:
        for term in item.answers:
            answers.setdefault(term_key(term), term)
        for iri, classes in item.types.items():
            types.setdefault(iri, list(classes))
    pattern = " UNION ".join(f"{{ {e.query.pattern} }}" for e in group)
    sparql = f"SELECT DISTINCT {chosen.query.answer_var} WHERE {{ {pattern} }}{chosen.query.modifiers}"
    merged = replace(chosen.query, sparql=sparql, pattern=pattern, execution_sparql=sparql)
    return replace(chosen, query=merged, answers=list(answers.values()), types=types,
                   truncated=any(e.truncated for e in group))


def readable_alternative(chosen: ExecutedQuery, executed: Sequence[ExecutedQuery], *,
                         margin: float = READABLE_MARGIN) -> ExecutedQuery | None:
    """The best answered query whose answers are all values, if its effective score is within `margin`
    of `chosen`'s: asked when `chosen` answers with things the graph neither names nor types (a
    supplier's `country` linking out to DBpedia), whose values (`addressCountry` "Canada") say more, or
    answers a number per group of such things (then the alternative's groups are values too)."""
    floor = chosen.effective_score - margin
    width = len(chosen.query.columns)  # a number per group: the groups are what must be values
    readable = [e for e in executed if e is not chosen and e.status in (MATCH, MISMATCH) and e.boolean is None
                and e.raw_answers and all(isinstance(a, ox.Literal) for a in e.raw_answers)
                and len(e.query.columns) == width and (not width or e.rows and all(
                    isinstance(c, ox.Literal) for _, columns in e.rows for c in columns if c is not None))
                and e.effective_score >= floor]
    return max(readable, key=lambda e: (round(e.effective_score, 9), -e.rank)) if readable else None


def select_answer(executed: Sequence[ExecutedQuery]) -> ExecutedQuery | None:
    """The answered query with the best effective score (Eq. 2 score less its type mismatch
    penalty; on ties, for "the most/least ..." the query singling out fewer answers, then the better
    rank: a reading where every group ties for first, such as each product having one manager,
    says nothing); for yes/no questions, `false` from the best query if none was true."""
    ran = [e for e in executed if e.status != SKIPPED]
    answered = [e for e in ran if e.status in (MATCH, MISMATCH)]
    if answered:
        def preference(e: ExecutedQuery) -> tuple[float, int, int]:
            return round(e.effective_score, 9), -len(e.answers) if e.query.ordered else 0, -e.rank

        return union_of_ties(max(answered, key=preference), answered)
    if ran and ran[0].query.form is QuestionForm.BOOLEAN:
        for item in ran:
            if item.status == EMPTY:
                return item
    return None
