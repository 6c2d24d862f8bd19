"""The cipher of a backup's sealed fields (tracker/backup/sealed_fields.py): deterministic, bound to its
event and field, and opened only by the key that sealed it."""
import pytest

from tracker.backup.sealed_fields import MARK, Sealer, Unreadable, is_sealed, sealing_key

WHERE = ("duel-d1", 7, "RocetCardChosen", "card")


def test_a_sealed_value_opens_back_to_itself_and_seals_the_same_each_time():
    sealer = Sealer("install secret")
    for value in ("Estocada Alta", ["Finta", "Treta"], 17, {"skill": "deception"}, ""):
        sealed = sealer.seal(*WHERE, value)
        assert is_sealed(sealed) and sealed == Sealer("install secret").seal(*WHERE, value)
        assert sealer.open(*WHERE, sealed) == value
    assert "Estocada" not in sealer.seal(*WHERE, "Estocada Alta")[MARK]


@pytest.mark.parametrize("elsewhere", [("duel-d2", 7, "RocetCardChosen", "card"), ("duel-d1", 8, "RocetCardChosen", "card"),
                                       ("duel-d1", 7, "RocetCardsPlayed", "card"), ("duel-d1", 7, "RocetCardChosen", "dice")])
def test_a_sealed_value_opens_only_in_its_own_event_and_field(elsewhere):
    sealer = Sealer("install secret")
    sealed = sealer.seal(*WHERE, "Estocada Alta")
    with pytest.raises(Unreadable):
        sealer.open(*elsewhere, sealed)
    assert sealer.seal(*elsewhere, "Estocada Alta") != sealed  # no two events' ciphertexts compare


def test_another_key_or_a_changed_text_does_not_open():
    sealed = Sealer("install secret").seal(*WHERE, "Estocada Alta")
    with pytest.raises(Unreadable):
        Sealer("another install").open(*WHERE, sealed)
    text = sealed[MARK]
    for changed in (text[:-2] + ("AA" if text[-2:] != "AA" else "BB"), text[:10], "not base64 !", 42):
        with pytest.raises(Unreadable):
            Sealer("install secret").open(*WHERE, {MARK: changed})


def test_the_key_is_derived_under_its_own_label_never_the_secret_or_the_signing_key():
    from tracker.backup import signing_key

    key = sealing_key("install secret")
    assert len(key) == 64 and key == sealing_key("install secret") != sealing_key("another install")
    assert key[:32] != signing_key("install secret") and b"install secret" not in key
