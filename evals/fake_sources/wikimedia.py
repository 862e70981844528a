"""Wikidata (wbsearchentities, wbgetentities) and Wikipedia (action=query, prop=redirects).

Shapes follow fixtures/wikidata, fixtures/wikipedia and API_NOTES.md §8–9: errors are HTTP 200 with an
`error` object; a deleted entity is `{"id", "missing": ""}`; Wikipedia pages list the titles that
redirect to them, `formatversion=2` gives a list of pages and 1 an object keyed by page id.
"""

from __future__ import annotations

import re
from typing import Any

from starlette.responses import Response

from evals.fake_sources.context import Ctx, json_response
from evals.fake_sources.universe import stable_hash

SERVED_BY = "mw-api-ext.eqiad.main-fake"
# A few real English ↔ Chinese labels, so bilingual lookups have something true to find.
ZH_LABELS = {
    "deep learning": "深度学习",
    "machine learning": "机器学习",
    "artificial intelligence": "人工智能",
    "neural network": "神经网络",
    "electrocardiography": "心电图",
    "atrial fibrillation": "心房颤动",
    "hypertension": "高血压",
    "diabetes mellitus": "糖尿病",
    "sleep": "睡眠",
    "depression": "抑郁症",
}
EN_LABELS = {v: k for k, v in ZH_LABELS.items()}
_CJK = re.compile(r"[\u3400-\u9fff]")


def _error(code: str, info: str) -> Response:
    return json_response(
        {
            "error": {
                "code": code,
                "info": info,
                "*": "See https://www.wikidata.org/w/api.php for API usage.",
            },
            "servedby": SERVED_BY,
        }
    )


def _nonexistent(text: str) -> bool:
    return "nonexistent" in text.lower() or "zzzz" in text.lower()


# ------------------------------------------------------------------------------------------------
# Wikidata
# ------------------------------------------------------------------------------------------------


async def handle_wikidata(ctx: Ctx) -> Response:
    action = ctx.get("action")
    if action == "wbsearchentities":
        return search_entities(ctx)
    if action == "wbgetentities":
        return get_entities(ctx)
    return _error("badvalue", f'Unrecognized value for parameter "action": {action}.')


def _qid(search: str, n: int) -> str:
    return f"Q{stable_hash('wikidata', search.casefold(), n) % 10**8 + 1000}"


def _aliases(label: str) -> list[str]:
    words = label.split()
    out = []
    if len(words) > 1:
        out.append("".join(w[0] for w in words).upper())
        out.append("-".join(words))
    if len(words) == 1 and not _CJK.search(label):
        out.append(label[:-1] if label.endswith("s") else label + "s")
    return [a for a in dict.fromkeys(out) if a.casefold() != label.casefold()]


def _labels_for(search: str) -> tuple[str, str | None]:
    """(English label, Chinese label) for a search in either language."""
    text = search.strip()
    if _CJK.search(text):
        return EN_LABELS.get(text, text), text
    return text, ZH_LABELS.get(text.casefold())


def search_entities(ctx: Ctx) -> Response:
    search = ctx.get("search").strip()
    if not search:
        return _error("missingparam", 'The "search" parameter must be set.')
    language = ctx.get("language", "en") or "en"
    limit = min(max(1, ctx.get_int("limit", 7)), 50)
    start = max(0, ctx.get_int("continue", 0))
    count = 0 if _nonexistent(search) else 1 + stable_hash("wdcount", search.casefold()) % 4
    english, chinese = _labels_for(search)
    results = []
    for n in range(start, min(count, start + limit)):
        qid = _qid(search, n)
        label = (
            (chinese if language.startswith("zh") and chinese else english)
            if n == 0
            else f"{english} ({['journal', 'album', 'company'][n % 3]})"
        )
        description = ["field of study", "scientific journal", "music album", "company"][min(n, 3)]
        ctx.state.wikidata_items[qid] = (label if n else english, search)
        entry: dict[str, Any] = {
            "id": qid,
            "title": qid,
            "pageid": stable_hash(qid) % 10**8,
            "concepturi": f"http://www.wikidata.org/entity/{qid}",
            "repository": "wikidata",
            "url": f"//www.wikidata.org/wiki/{qid}",
            "display": {
                "label": {"value": label, "language": language},
                "description": {"value": description, "language": "en"},
            },
            "label": label,
            "description": description,
            "match": {"type": "label", "language": language, "text": label},
        }
        if n == 0:
            entry["aliases"] = _aliases(english)[:2]
        results.append(entry)
    body: dict[str, Any] = {"searchinfo": {"search": search}, "search": results}
    if start + limit < count:
        body["search-continue"] = start + limit
    body["success"] = 1
    return json_response(body)


def _generated_entity(qid: str, label: str, search: str) -> dict[str, Any]:
    english, chinese = _labels_for(search)
    if label != english:  # a lower-ranked namesake ("deep learning (journal)") has no Chinese label
        english, chinese = label, None
    labels = {"en": {"language": "en", "value": english}}
    aliases = {"en": [{"language": "en", "value": a} for a in _aliases(english)]}
    if chinese:
        labels["zh"] = {"language": "zh", "value": chinese}
        labels["zh-hans"] = {"language": "zh-hans", "value": chinese}
        aliases["zh"] = [{"language": "zh", "value": f"{chinese}技术"}]
    return {
        "type": "item",
        "id": qid,
        "labels": labels,
        "descriptions": {"en": {"language": "en", "value": "field of study"}},
        "aliases": aliases,
        "claims": {},
        "sitelinks": {"enwiki": {"site": "enwiki", "title": english[:1].upper() + english[1:], "badges": []}},
    }


def _only_languages(entity: dict[str, Any], languages: set[str]) -> dict[str, Any]:
    if not languages:
        return entity
    out = dict(entity)
    for part in ("labels", "descriptions", "aliases"):
        if isinstance(entity.get(part), dict):
            out[part] = {k: v for k, v in entity[part].items() if k in languages}
    return out


def get_entities(ctx: Ctx) -> Response:
    ids = [i.strip().upper() for i in ctx.get("ids").split("|") if i.strip()]
    if not ids:
        return _error(
            "param-missing",
            'Either provide the item "ids" or pairs of "sites" and "titles" for corresponding pages.',
        )
    languages = {lang for lang in ctx.get("languages").split("|") if lang}
    entities: dict[str, Any] = {}
    for qid in ids:
        recorded = ctx.recordings.wikidata_entities.get(qid) if ctx.config.replay else None
        if recorded is not None:
            entities[qid] = _only_languages(recorded, languages)
        elif qid in ctx.state.wikidata_items:
            label, search = ctx.state.wikidata_items[qid]
            entities[qid] = _only_languages(_generated_entity(qid, label, search), languages)
        else:
            entities[qid] = {"id": qid, "missing": ""}
    return json_response({"entities": entities, "success": 1})


# ------------------------------------------------------------------------------------------------
# Wikipedia
# ------------------------------------------------------------------------------------------------


async def handle_wikipedia(ctx: Ctx) -> Response:
    action = ctx.get("action")
    if action != "query":
        return _error("badvalue", f'Unrecognized value for parameter "action": {action}.')
    titles = [t for t in ctx.get("titles").split("|") if t.strip()]
    if not titles:
        return json_response({"batchcomplete": True, "warnings": {"main": {"warnings": "No titles given."}}})
    props = set(ctx.get("prop").split("|"))
    version2 = ctx.get("formatversion", "1") == "2"
    limit_text = ctx.get("rdlimit", "10")
    limit = 500 if limit_text == "max" else max(1, int(limit_text) if limit_text.isdigit() else 10)
    cont = ctx.get("rdcontinue")
    skip_page, skip = (int(x) for x in cont.split("|")) if re.fullmatch(r"\d+\|\d+", cont) else (None, 0)

    normalized = []
    pages = []
    continuation = None
    for raw in titles:
        title = raw.strip().replace("_", " ")
        fixed = title[:1].upper() + title[1:]
        if fixed != title:
            normalized.append(
                {"fromencoded": False, "from": title, "to": fixed}
                if version2
                else {"from": title, "to": fixed}
            )
        if _nonexistent(fixed):
            pages.append({"ns": 0, "title": fixed, "missing": True if version2 else ""})
            continue
        pageid = stable_hash("wikipedia", fixed) % 10**8
        page: dict[str, Any] = {"pageid": pageid, "ns": 0, "title": fixed}
        if "redirects" in props:
            variants = list(_redirect_titles(fixed))
            start = skip if skip_page == pageid else 0
            chosen = variants[start : start + limit]
            if start + limit < len(variants):
                continuation = {"rdcontinue": f"{pageid}|{start + limit}", "continue": "||"}
            if chosen:
                page["redirects"] = [
                    {"pageid": stable_hash("redirect", v) % 10**8, "ns": 0, "title": v} for v in chosen
                ]
        if "pageprops" in props:
            page["pageprops"] = {"wikibase_item": _qid(fixed.lower(), 0)}
        pages.append(page)

    query: dict[str, Any] = {}
    if normalized:
        query["normalized"] = normalized
    if version2:
        query["pages"] = pages
    else:
        query["pages"] = {str(p.get("pageid", -1 - i)): p for i, p in enumerate(pages)}
    body: dict[str, Any] = {"batchcomplete": True if version2 else ""}
    if continuation:
        body = {"continue": continuation}
    body["query"] = query
    return json_response(body)


def _redirect_titles(title: str) -> list[str]:
    """Plausible titles that redirect to `title`: acronym, plural, other casing, hyphenation."""
    words = title.split()
    out = []
    if len(words) > 1:
        out.append("".join(w[0] for w in words).upper())
        out.append(" ".join(w.capitalize() for w in words))
        out.append("-".join(w.lower() for w in words).capitalize())
    if _CJK.search(title):
        if title in EN_LABELS:
            out.append(EN_LABELS[title].capitalize())
        return [v for v in dict.fromkeys(out) if v != title]
    out.append(title + "s" if not title.endswith("s") else title[:-1])
    if title.casefold() in ZH_LABELS:
        out.append(ZH_LABELS[title.casefold()])
    out.append(f"{title} (science)")
    return [v for v in dict.fromkeys(out) if v != title]
