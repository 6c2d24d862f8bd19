"""Walk every page of a running Touché the way a GM's browser would: follow each link, htmx
fragment and GET form (submitted as filled in) from the home page and the given starting points.

Pages of the same shape (a duel page, an event page, a time-travel step...) are visited at most
``per_shape`` times, so a long log does not make the walk long; downloads are left out."""
import re
from urllib.parse import urljoin, urlsplit

# What the page offers to go to next: links, htmx GETs, and GET forms as they stand.
OUTGOING = """() => {
  const urls = [], fragments = [];
  for (const a of document.querySelectorAll('a[href]:not([download])')) urls.push(a.getAttribute('href'));
  for (const el of document.querySelectorAll('[hx-get]')) fragments.push(el.getAttribute('hx-get'));
  for (const form of document.querySelectorAll('form')) {
    if ((form.getAttribute('method') || 'get').toLowerCase() !== 'get') continue;
    const query = new URLSearchParams(new FormData(form)).toString();
    urls.push((form.getAttribute('action') || location.pathname) + (query ? '?' + query : ''));
  }
  for (const input of document.querySelectorAll('input[value*="/play/"]')) urls.push(input.value);
  return {urls, fragments};
}"""

DOWNLOAD = re.compile(r"(\.jsonl|/recap\.\w+)$|[?&]format=")
NEVER = re.compile(r"/logout|/static/|/api/")


def shape(url: str) -> str:
    """The kind of page a URL shows: ids and numbers blanked, query values dropped."""
    parts = urlsplit(url)
    path = re.sub(r"/play/[^/]+", "/play/T", parts.path)
    path = re.sub(r"/(id)?[0-9a-f]*\d[0-9a-f]*(?=/|$)", "/N", path)
    keys = sorted({pair.split("=")[0] for pair in parts.query.split("&") if pair})
    return path + "?" + ",".join(keys)


class Walk:
    """The pages visited (each also drawn in a browser) and the htmx fragments fetched."""

    def __init__(self):
        self.pages: list[str] = []
        self.fragments: list[str] = []


def crawl(page, base: str, starts: list[str], per_shape: int = 3, on_page=None) -> Walk:
    """Every same-site page reachable from ``starts``, in the order first reached.

    A URL htmx fetches is first asked for as htmx asks (its fragment must answer below 500), then
    opened as a page too, which includes the same fragment, unless it answered 204 (nothing new).
    ``on_page(url)`` is called on each page once it is drawn, before the walk moves on."""
    walk, queue, seen, shapes, fragment_shapes = Walk(), list(starts), set(starts), {}, {}
    while queue:
        url = queue.pop(0)
        kind = shape(url)
        if shapes.get(kind, 0) >= per_shape:
            continue
        shapes[kind] = shapes.get(kind, 0) + 1
        response = page.goto(url)
        assert response is not None and response.status < 500, f"{url} answered {response and response.status}"
        walk.pages.append(url)
        found = page.evaluate(OUTGOING)
        if on_page:
            on_page(url)
        for href, is_fragment in [(u, False) for u in found["urls"]] + [(u, True) for u in found["fragments"]]:
            target = urljoin(base + url, href or "")
            if not target.startswith(base + "/"):
                continue
            target = target[len(base):].split("#")[0]
            if is_fragment:  # a live fragment's long-poll `wait=`: read it as it is now, at once
                target = re.sub(r"([?&])wait=[^&]*&?", r"\1", target).rstrip("?&")
            if NEVER.search(target) or DOWNLOAD.search(target):
                continue
            if is_fragment and target not in walk.fragments and fragment_shapes.get(shape(target), 0) < per_shape:
                fragment_shapes[shape(target)] = fragment_shapes.get(shape(target), 0) + 1
                answer = page.request.get(base + target, headers={"HX-Request": "true"})
                assert answer.status < 500, f"fragment {target} answered {answer.status}"
                walk.fragments.append(target)
                if answer.status == 204:
                    seen.add(target)  # reached again from another page, it is still no page
                    continue  # nothing new (the table display's poll): no page to draw
            if target in seen:
                continue
            seen.add(target)
            queue.append(target)
    return walk
