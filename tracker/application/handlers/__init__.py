"""Each workspace and account command's handler, by the command's type.

``tracker.bootstrap`` hands this table to the service. A duel's own commands (``PlayTurn``,
``Strike``, ``Insult``…) are not listed: they all go to ``duels.duel_command``, which finds the
duel's ruleset.
"""

from tracker.application.handlers import accounts, duels, recovery, sessions, workspace

HANDLERS = {
    "CreateCampaign": workspace.create_campaign,
    "EditCampaign": workspace.edit_campaign,
    "ChangeCampaignRules": workspace.change_campaign_rules,
    "SetCampaignLanguage": workspace.set_campaign_language,
    "CreateCharacter": workspace.create_character,
    "EditCharacter": workspace.edit_character,
    "ImportCharacter": workspace.import_character,
    "PlanSession": workspace.plan_session,
    "EditSession": workspace.edit_session,
    "CloseSession": workspace.close_session,
    "RetractEvent": workspace.retract,
    "RestoreRetraction": workspace.restore,
    "RecoverCharacter": recovery.recover_character,
    "AdjustTrack": recovery.adjust_track,
    "RestParty": recovery.rest_party,
    "StartDuel": duels.start_duel,
    "NoteDuel": duels.note_duel,
    "TakeOverSeat": duels.take_over_seat,
    "AdjustDuelTrack": duels.adjust_duel_track,
    "RegisterGM": accounts.register_gm,
    "EndSession": sessions.end_session,
    "EndAllSessions": sessions.end_all_sessions,
    "ChangePassword": sessions.change_password,
    "ChooseLanguage": accounts.choose_language,
    "IssueApiToken": accounts.issue_api_token,
    "RevokeApiToken": accounts.revoke_api_token,
    "ShareCampaign": accounts.share_campaign,
    "UnshareCampaign": accounts.unshare_campaign,
    "IssuePlayerLink": accounts.issue_player_link,
    "RevokePlayerLink": accounts.revoke_player_link,
}
