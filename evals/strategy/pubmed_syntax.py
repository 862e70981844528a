"""A tolerant reader of PubMed Boolean queries, for scoring expert and generated search strategies.

Expert strategies are messy (Ovid leftovers, lowercase operators, curly quotes, unbalanced parentheses,
isotope prefixes such as `[11C]PIB`), so the reader never fails: it builds the best tree it can and
records every departure from clean PubMed syntax as an issue. A generated query is *valid* when it
has no issue at all (`validity_issues`).

PubMed semantics followed here:
- Boolean operators are applied left to right, without precedence: `a OR b AND c` is `(a OR b) AND c`.
- Consecutive unquoted words between operators are one term (`Tuberculosis, Pulmonary[mesh]` is the
  heading "Tuberculosis, Pulmonary"); a field tag applies to the term just before it.
- A leading `*` on a MeSH term (Ovid style, kept by some translations) or `[majr]` marks a major topic.
- `*` at the end of a word is truncation; `?` is an Ovid wildcard that PubMed does not know.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

# field tag (lower-cased, spaces collapsed) -> the kind of field this evaluation cares about
_TAGS_BY_KIND: dict[str, tuple[str, ...]] = {
    "mesh": (
        "mesh",
        "mh",
        "mesh terms",
        "majr",
        "mesh major topic",
        "mesh:noexp",
        "mh:noexp",
        "majr:noexp",
        "mesh terms:noexp",
    ),
    "subheading": ("sh", "subheading", "sh:noexp"),
    "tiab": ("tiab", "title/abstract"),
    "ti": ("ti", "title"),
    "ab": ("ab", "abstract"),
    "tw": ("tw", "text word"),
    "all": ("all", "all fields"),
    "ot": ("ot", "other term"),
    "substance": ("nm", "supplementary concept", "pa", "pharmacological action", "rn", "ec/rn number"),
    "pt": ("pt", "publication type"),
    "author": ("au", "author", "1au", "lastau", "fau", "full author name"),
    "limit": (
        "la",
        "language",
        "crdt",
        "create date",
        "dp",
        "pdat",
        "publication date",
        "edat",
        "entrez date",
        "mhda",
        "sb",
        "subset",
        "filter",
        "ta",
        "journal",
        "jour",
        "is",
        "issn",
        "vi",
        "pg",
        "ad",
        "affiliation",
        "pmid",
        "uid",
        "gr",
        "grant number",
        "ps",
        "si",
        "dcom",
        "lr",
    ),
}
FIELD_KINDS = {tag: kind for kind, tags in _TAGS_BY_KIND.items() for tag in tags}
FREE_TEXT_KINDS = {"tiab", "ti", "ab", "tw", "all", "ot", "substance", None}
_PROXIMITY_TAG = re.compile(r"^(tiab|ti|ad):~\d+$")

OPERATORS = {"and": "AND", "or": "OR", "not": "NOT"}
_OVID_OPERATOR = re.compile(r"^(adj\d*|near/?\d*|next|same|with)$", re.IGNORECASE)
_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "‟": '"', "’": "'", "‘": "'", "`": "'"})


@dataclass(frozen=True)
class Term:
    """One search term: its text without quotes, field tag and major-topic star."""

    text: str
    tag: str | None = None  # the tag as written, without brackets
    quoted: bool = False
    major: bool = False

    @property
    def kind(self) -> str | None:
        """`mesh`, `tiab`, `tw`, ... (see FIELD_KINDS); None for an untagged term."""
        if self.tag is None:
            return None
        key = " ".join(self.tag.lower().split())
        if _PROXIMITY_TAG.match(key):
            return "tiab" if key.startswith("tiab") else key.split(":")[0]
        return FIELD_KINDS.get(key, "unknown")

    @property
    def is_mesh(self) -> bool:
        return self.kind == "mesh"

    @property
    def is_free_text(self) -> bool:
        return self.kind in FREE_TEXT_KINDS

    @property
    def truncated(self) -> bool:
        return "*" in self.text

    def words(self) -> list[str]:
        return self.text.split()

    def __str__(self) -> str:
        text = f'"{self.text}"' if self.quoted else self.text
        return f"{'*' if self.major else ''}{text}{f'[{self.tag}]' if self.tag else ''}"


@dataclass
class Group:
    """An operator applied to its operands: AND/OR flattened, NOT = first operand minus the others."""

    op: str
    children: list[Node] = field(default_factory=list)


Node = Term | Group


@dataclass
class Parsed:
    root: Node | None
    issues: list[str]

    def terms(self, *, include_excluded: bool = True) -> list[Term]:
        return list(iter_terms(self.root, include_excluded=include_excluded)) if self.root else []


def iter_terms(node: Node, *, include_excluded: bool = True) -> Iterator[Term]:
    """Terms in document order; `include_excluded=False` leaves out what a NOT takes away."""
    if isinstance(node, Term):
        yield node
        return
    children = node.children[:1] if node.op == "NOT" and not include_excluded else node.children
    for child in children:
        yield from iter_terms(child, include_excluded=include_excluded)


# ----------------------------------------------------------------------------------------------
# tokens
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Token:
    kind: str  # "(" ")" "op" "ovid" "word" "phrase" "tag"
    text: str


_WORD_STOP = set(' \t\r\n()"')
_STRAY_QUOTE = re.compile(r"\[[A-Za-z]|\s(AND|OR|NOT)\s")


def tokenize(query: str) -> tuple[list[Token], list[str]]:
    text = query.translate(_QUOTES)
    tokens: list[Token] = []
    issues: list[str] = []
    i, n = 0, len(text)
    while i < n:
        char = text[i]
        if char.isspace():
            i += 1
        elif char in "()":
            tokens.append(Token(char, char))
            i += 1
        elif char == '"':
            end = text.find('"', i + 1)
            phrase = text[i + 1 : end if end >= 0 else n]
            if end < 0 or _STRAY_QUOTE.search(phrase):
                # a quote whose "phrase" holds a field tag or an operator was never meant to open one
                issues.append("unterminated quote" if end < 0 else "stray quote")
                i += 1
                continue
            tokens.append(Token("phrase", " ".join(phrase.split())))
            i = end + 1
        elif char == "[" and not _isotope_prefix(text, i):
            end = text.find("]", i + 1)
            if end < 0:
                issues.append("unterminated field tag '['")
                end = n
            tokens.append(Token("tag", text[i + 1 : end].strip()))
            i = end + 1
        elif char == "]":
            issues.append("stray ']'")
            i += 1
        else:
            start = i
            while i < n and text[i] not in _WORD_STOP:
                if text[i] == "[":
                    if _isotope_prefix(text, i):  # "[11C]choline" inside a word
                        i = text.find("]", i) + 1
                        continue
                    break
                i += 1
            word = text[start:i]
            if word.lower() in OPERATORS:
                tokens.append(Token("op", word))
            elif _OVID_OPERATOR.match(word) and tokens and tokens[-1].kind in ("word", "phrase", "tag", ")"):
                tokens.append(Token("ovid", word))
            else:
                tokens.append(Token("word", word))
    return tokens, issues


def _isotope_prefix(text: str, i: int) -> bool:
    """`[11C]`, `[18F]`, `[(18)F]`: a bracket glued to the word that follows it is part of the word."""
    end = text.find("]", i + 1)
    return (
        end > i
        and end + 1 < len(text)
        and (text[end + 1].isalnum())
        and bool(re.match(r"^\(?\d+m?\)?[A-Za-z]{1,2}$", text[i + 1 : end]))
    )


# ----------------------------------------------------------------------------------------------
# parser
# ----------------------------------------------------------------------------------------------


class _Parser:
    def __init__(self, tokens: list[Token], issues: list[str]) -> None:
        self.tokens = tokens
        self.pos = 0
        self.issues = issues

    def peek(self) -> Token | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def parse(self) -> Node | None:
        node = self.expression(depth=0)
        while self.pos < len(self.tokens):  # only a stray ')' stops an expression at depth 0
            self.issues.append("unbalanced parentheses: ')' without '('")
            self.pos += 1
            more = self.expression(depth=0)
            if more is not None:
                node = more if node is None else _combine("AND", node, more)
        return node

    def expression(self, depth: int) -> Node | None:
        node: Node | None = None
        pending: str | None = None
        while (token := self.peek()) is not None:
            if token.kind == ")":
                if depth == 0:
                    return node
                break
            if token.kind in ("op", "ovid"):
                self.pos += 1
                if token.kind == "ovid":
                    self.issues.append(f"Ovid operator '{token.text}' is not PubMed syntax")
                elif token.text != token.text.upper():
                    self.issues.append(f"bare Boolean word '{token.text}' (PubMed operators are upper case)")
                if node is None or pending is not None:
                    self.issues.append(f"operator '{token.text}' without a left operand")
                pending = "AND" if token.kind == "ovid" else OPERATORS[token.text.lower()]
                continue
            operand = self.operand(depth)
            if operand is None:
                continue
            if node is None:
                node = operand
            else:
                if pending is None:
                    self.issues.append(f"no operator before '{_short(operand)}'")
                node = _combine(pending or "AND", node, operand)
            pending = None
        if pending is not None:
            self.issues.append(f"operator '{pending}' without a right operand")
        return node

    def operand(self, depth: int) -> Node | None:
        token = self.peek()
        assert token is not None
        if token.kind == "(":
            self.pos += 1
            inner = self.expression(depth + 1)
            closing = self.peek()
            if closing is not None and closing.kind == ")":
                self.pos += 1
            else:
                self.issues.append("unbalanced parentheses: '(' never closed")
            if inner is None:
                self.issues.append("empty group '()'")
            nxt = self.peek()
            if nxt is not None and nxt.kind == "tag":
                self.issues.append(f"field tag [{nxt.text}] after a parenthesised group")
                self.pos += 1
            return inner
        if token.kind == "tag":
            self.issues.append(f"field tag [{token.text}] without a term")
            self.pos += 1
            return None
        return self.term()

    def term(self) -> Term:
        token = self.tokens[self.pos]
        self.pos += 1
        if token.kind == "phrase":
            text, quoted = token.text, True
        else:
            words = [token.text]
            while (nxt := self.peek()) is not None and nxt.kind == "word":
                words.append(nxt.text)
                self.pos += 1
            text, quoted = " ".join(words), False
        tag = None
        if (nxt := self.peek()) is not None and nxt.kind == "tag":
            tag = nxt.text
            self.pos += 1
        major = False
        if text.startswith("*") and len(text) > 1:
            major, text = True, text[1:].lstrip()
        if tag and tag.lower().startswith("majr"):
            major = True
        if not text:
            self.issues.append("empty phrase")
        return Term(text=text, tag=tag, quoted=quoted, major=major)


def _combine(op: str, left: Node, right: Node) -> Group:
    if isinstance(left, Group) and left.op == op:
        return Group(op, [*left.children, right])
    return Group(op, [left, right])


def _short(node: Node) -> str:
    return str(node)[:40] if isinstance(node, Term) else f"({node.op} ...)"


def parse(query: str) -> Parsed:
    """The tree of `query` (None when it has no term) and every syntax issue met on the way."""
    tokens, issues = tokenize(query)
    root = _Parser(tokens, issues).parse()
    if root is None:
        issues.append("no search term")
    for term in iter_terms(root) if root is not None else []:
        if term.kind == "unknown":
            issues.append(f"unknown field tag [{term.tag}]")
    return Parsed(root=root, issues=issues)


def validity_issues(query: str) -> list[str]:
    """Why `query` is not clean PubMed syntax; empty when it is valid."""
    issues = parse(query).issues
    if "?" in query.replace('"', ""):
        issues = [*issues, "'?' is an Ovid wildcard, not PubMed syntax"]
    return list(dict.fromkeys(issues))


# ----------------------------------------------------------------------------------------------
# concept blocks
# ----------------------------------------------------------------------------------------------


def conjuncts(node: Node) -> list[Node]:
    """The AND'ed operands of `node`: AND groups flattened through parentheses, the excluded side of a
    NOT dropped; anything else (a term, an OR group) is one operand."""
    if isinstance(node, Group) and node.op == "AND":
        return [part for child in node.children for part in conjuncts(child)]
    if isinstance(node, Group) and node.op == "NOT":
        return conjuncts(node.children[0])
    return [node]


def and_groups(node: Node) -> Iterator[Group]:
    """Every AND group inside `node` (not inside what a NOT excludes), outermost first."""
    if isinstance(node, Term):
        return
    if node.op == "AND":
        yield node
    children = node.children[:1] if node.op == "NOT" else node.children
    for child in children:
        yield from and_groups(child)
