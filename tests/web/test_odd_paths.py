"""No path causes a 500: odd bytes in a URL (control characters, a NUL, bytes that are not UTF-8)
get a 4xx or a redirect, anonymous or logged in, on the API (old and /api/v1 paths) and on pages.
An anonymous /api/ path holding %0a once answered 500: the old paths' Link header was built from
the decoded path, and a header may not hold a newline."""
import pytest

ODD = ["%00", "%0d", "%0a", "%0d%0a", "%ff", "%c3%28", "%09", "%7f", "%25", "%2f", "%5c", "%e2%80%a8", "..%2f.."]
PLACES = ["/api/duels/{}", "/api/v1/duels/{}", "/api/campaigns/{}/changes", "/api/{}", "/api/v1/display/{}",
          "/campaigns/{}", "/duels/{}", "/play/{}/display", "/seat/{}", "/{}", "/login?next=/{}"]


@pytest.mark.parametrize("place", PLACES)
def test_odd_bytes_in_a_path_never_answer_5xx(app, client, place):
    anonymous = app.test_client()
    for odd in ODD:
        path = place.format(f"a{odd}b")
        for who, visitor in (("anonymous", anonymous), ("GM", client)):
            status = visitor.get(path).status_code
            assert status < 500, f"{who} GET {path} answered {status}"


def test_the_old_api_path_names_its_successor_percent_encoded(app):
    answer = app.test_client().get("/api/duels/a%0ab")
    assert answer.status_code == 401
    assert answer.headers["Link"] == '</api/v1/duels/a%0Ab>; rel="successor-version"'
