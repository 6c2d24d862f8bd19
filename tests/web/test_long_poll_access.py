"""A long-poll's access is checked again when its wait ends: a display link, or a GM's API token,
revoked while a follower waits gets that follower a refusal, never the duel's next state."""
import threading
import time

from tests.web.test_api_v1 import V1, duel_of, send


def _follow_while(client, path, revoke):
    answers = []
    waiting = threading.Thread(target=lambda: answers.append(client.get(path)))
    waiting.start()
    time.sleep(0.5)  # the follower is waiting now
    revoke()
    waiting.join(timeout=10)
    return answers[0]


def test_a_display_link_revoked_during_a_wait_gets_no_answer(app, client, anonymous):
    app.config["LONG_POLL_MAX"] = 2
    duel = duel_of(client, "rocet", {"kind": "relojes", "cards": "virtual", "weapon_type": "Espada"})
    link = send(client, type="IssuePlayerLink", link_kind="display", target=duel)
    token, link_id = link["url"].rsplit("/", 2)[-2], link["events"][0]["data"]["link_id"]
    version = anonymous.get(f"{V1}/display/{token}").json["version"]
    answer = _follow_while(anonymous, f"{V1}/display/{token}?since={version}&wait=2",
                           lambda: send(client, type="RevokePlayerLink", link_id=link_id))
    assert answer.status_code == 404, answer.json


def test_an_api_token_revoked_during_a_wait_gets_no_answer(app, client):
    app.config["LONG_POLL_MAX"] = 2
    duel = duel_of(client, "rocet", {"kind": "relojes", "cards": "virtual", "weapon_type": "Espada"})
    version = client.get(f"{V1}/duels/{duel}").json["version"]
    other = send(client, type="IssueApiToken", label="follower")
    follower = app.test_client()
    follower.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {other['secret']}"
    answer = _follow_while(follower, f"{V1}/duels/{duel}/changes?since={version}&wait=2",
                           lambda: send(client, type="RevokeApiToken", token_id=other["events"][0]["data"]["token_id"]))
    assert answer.status_code == 401, answer.json
