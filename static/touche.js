// Touché's few enhancements; every page works without them.
// - The header menu is a <details>: opened on a wide screen, folded on a phone.
// - After a refused action swapped in by htmx, the focus goes to the form's error summary
//   (or, for a form without one, to its first error), and each summary link focuses its field.
// - After an action, a screen reader hears what was logged (#announcer, a polite live region).
// - A <time data-local> logged in UTC is shown in the reader's local time.
// - A panel that follows the duel live ([data-live-guard]: the GM's duel page while players'
//   seats act) is never redrawn under a form the GM is filling in: the redraw waits, and a notice
//   says the duel moved, until the GM sends the form (then a stale one is a conflict they see)
//   or asks for the new state.
// - A player's seat never swaps in a polled answer older than what it shows.
// - A seat or a table display follows by long-poll, asking again after each answer.
(function () {
  "use strict";
  var wide = window.matchMedia("(min-width: 60rem)");

  function fitMenu() {
    var menus = document.querySelectorAll("details.menu");
    for (var i = 0; i < menus.length; i++) menus[i].open = wide.matches;
  }

  function focusFirstError(root) {
    var summary = root.querySelector(".error-summary");
    var target = summary || root.querySelector(".error.banner, [aria-invalid=true]");
    if (!target) return false;
    if (target.tabIndex < 0 && !target.matches("input, select, textarea, button")) target.setAttribute("tabindex", "-1");
    target.focus();
    return true;
  }

  function fieldFor(link) {
    var field = document.getElementById(link.hash.slice(1));
    if (field) return field;
    var form = link.closest("form") || document;
    var named = form.querySelectorAll("[name]");
    for (var i = 0; i < named.length; i++) {
      if (named[i].name === link.dataset.field && named[i].type !== "hidden") return named[i];
    }
    return null;
  }

  function announce(root) {
    var source = root.matches("[data-announce]") ? root : root.querySelector("[data-announce]");
    var region = document.getElementById("announcer");
    if (!source || !region || !source.dataset.announce) return;
    region.textContent = "";
    window.setTimeout(function () { region.textContent = source.dataset.announce; }, 50);
  }

  // A moment logged in UTC, shown in the reader's own time zone (the text says UTC without this).
  function localTimes(root) {
    var times = root.querySelectorAll("time[data-local]");
    for (var i = 0; i < times.length; i++) {
      var when = new Date(times[i].getAttribute("datetime"));
      if (!isNaN(when)) times[i].textContent = when.toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    localTimes(document);
    fitMenu();
    if (wide.addEventListener) wide.addEventListener("change", fitMenu);
    var summary = document.querySelector(".error-summary");
    if (summary && document.activeElement === document.body) summary.focus();
  });

  // A Copy button ([data-copy]: the id of the field whose text it copies) is shown only here,
  // where it can work; its words, and the "copied" notice, are the server's.
  document.addEventListener("DOMContentLoaded", function () {
    var buttons = document.querySelectorAll("button[data-copy]");
    for (var i = 0; i < buttons.length; i++) buttons[i].hidden = false;
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-copy]");
    if (!button) return;
    var field = document.getElementById(button.dataset.copy);
    var status = button.parentNode.querySelector(".copy-status");
    if (!field) return;
    function done() { if (status) status.textContent = button.dataset.copied || ""; }
    function fallback() {
      field.focus();
      field.select();
      try { if (document.execCommand("copy")) done(); } catch (e) { /* the text stays selected */ }
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(field.value).then(done, fallback);
    } else {
      fallback();
    }
  });

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest(".error-summary a[data-field]");
    if (!link) return;
    var field = fieldFor(link);
    if (!field) return;
    event.preventDefault();
    var details = field.closest("details");
    if (details) details.open = true;
    field.focus();
    field.scrollIntoView({ block: "center" });
  });

  // True when a form inside ``root`` holds something the reader entered and has not sent (focus
  // alone is not: the page autofocuses the next action's first field).
  function beingFilled(root) {
    var fields = root.querySelectorAll("input, select, textarea");
    for (var i = 0; i < fields.length; i++) {
      var f = fields[i];
      if (f.type === "hidden" || f.type === "submit") continue;
      if (f.type === "checkbox" || f.type === "radio") { if (f.checked !== f.defaultChecked) return true; continue; }
      if (f.tagName === "SELECT") {
        var first = -1;  // with no option marked selected, a single select starts on its first one
        for (var j = 0; j < f.options.length; j++) {
          if (f.options[j].defaultSelected && first < 0) first = j;
          if (f.multiple && f.options[j].selected !== f.options[j].defaultSelected) return true;
        }
        if (!f.multiple && f.selectedIndex !== Math.max(first, 0)) return true;
        continue;
      }
      if (f.value !== f.defaultValue) return true;
    }
    return false;
  }

  function movedNotice(panel) {
    var notice = document.getElementById("moved-notice");
    if (notice) return;
    // The words are the server's, in the GM's language (the panel's data-moved, data-moved-show).
    notice = document.createElement("p");
    notice.id = "moved-notice";
    notice.className = "notice moved";
    notice.setAttribute("role", "status");
    notice.setAttribute("aria-live", "polite");
    notice.textContent = (panel.dataset.moved || "") + " ";
    var show = document.createElement("button");
    show.type = "button";
    show.textContent = panel.dataset.movedShow || "↻";
    show.addEventListener("click", function () { window.location.reload(); });
    notice.appendChild(show);
    panel.parentNode.insertBefore(notice, panel);
    var region = document.getElementById("announcer");  // a region made now is not always read out
    if (region) {
      region.textContent = "";
      window.setTimeout(function () { region.textContent = panel.dataset.moved || ""; }, 50);
    }
  }

  // Each tap on a seat is its own command: a fresh "tap" joins the id the page drew, so going back
  // to an earlier choice from the same page is appended, not replayed (tracker/web/seats.py).
  document.addEventListener("htmx:configRequest", function (event) {
    var form = event.detail.elt;
    if (!form || !form.matches || !form.matches(".seat-form")) return;
    event.detail.parameters["tap"] = Date.now().toString(36) + Math.random().toString(36).slice(2, 8);
  });

  // What a player is typing on a seat survives the seat's redraws (a rival's choice, a follow's
  // answer): each field marked data-keep hands its value (and the focus) by id to the field of the
  // same id in the new seat, unless the server filled that one in. A field's id carries what it
  // is for (the exchange, the turn), so the words of an exchange thrown never reach the next one.
  // Not hx-preserve: with moveBefore, htmx 2 parks the kept element aside during the swap, and
  // two answers swapping the seat close together could leave it there: the field vanished.
  var typed = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || target.id !== "seat") return;
    typed = {values: {}, focused: null};
    target.querySelectorAll("input[data-keep][id]").forEach(function (field) {
      if (field.value) typed.values[field.id] = field.value;
      if (field === document.activeElement) typed.focused = field.id;
    });
  });

  document.addEventListener("htmx:afterSwap", function () {
    var seat = document.getElementById("seat");
    if (!seat || !typed) return;
    seat.querySelectorAll("input[data-keep][id]").forEach(function (field) {
      if (!field.value && typed.values[field.id]) field.value = typed.values[field.id];
      if (field.id === typed.focused) {
        field.focus();
        field.setSelectionRange(field.value.length, field.value.length);
      }
    });
    typed = null;
  });

  // A seat's long-poll that left before the player's tap may come back after the tap's answer,
  // with the page as it was: a fragment older than the one shown (its data-stamp only grows) is
  // dropped; so is an answer to a seat already replaced (by the tap's answer: it follows anew).
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || target.id !== "seat") return;
    if (!target.isConnected) { event.detail.shouldSwap = false; return; }
    if (event.detail.xhr.status !== 200) return;
    var seat = document.getElementById("seat") || target;
    var shown = parseInt(seat.getAttribute("data-stamp"), 10);
    var found = /data-stamp="(\d+)"/.exec(event.detail.xhr.responseText || "");
    if (found && !isNaN(shown) && parseInt(found[1], 10) < shown) event.detail.shouldSwap = false;
  });

  // A live fragment ([data-follow]: a seat, a table display) follows by long-poll: it asks once
  // drawn ("load"); an answer with something new replaces it, and the new one asks in turn. Left
  // in place (a 204 after a wait with nothing new, an answer dropped above, a lost connection), it
  // asks again: after the server's Retry-After, a few seconds after an error, and never more
  // often than twice a second.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (elt && elt.matches && elt.matches("[data-follow]")) elt.toucheAsked = Date.now();
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail.elt;
    if (!elt || !elt.matches || !elt.matches("[data-follow]") || !elt.isConnected) return;
    var xhr = event.detail.xhr;
    var status = xhr ? xhr.status : 0;
    var later = parseInt((xhr && xhr.getResponseHeader("Retry-After")) || "", 10);
    var delay = !isNaN(later) ? later * 1000 : (status === 0 || status >= 500) ? 3000 : 0;
    delay = Math.max(delay, 500 - (Date.now() - (elt.toucheAsked || 0)));
    window.setTimeout(function () { if (elt.isConnected) htmx.trigger(elt, "follow"); }, delay);
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    var panel = event.detail.target;
    if (!panel || !panel.matches("[data-live-guard]")) return;
    var polled = event.detail.requestConfig && event.detail.requestConfig.verb === "get";
    if (!polled || event.detail.xhr.status !== 200) {  // the GM's own action: its answer is drawn
      var sent = document.getElementById("moved-notice");
      if (sent) sent.remove();
      return;
    }
    if (beingFilled(panel)) {
      event.detail.shouldSwap = false;
      movedNotice(panel);
    } else {
      var notice = document.getElementById("moved-notice");
      if (notice) notice.remove();
    }
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    var root = event.detail.elt && event.detail.elt.isConnected ? event.detail.elt : document.body;
    var fresh = document.getElementById(root.id) || root;  // an outerHTML swap replaced the target
    var refused = event.detail.xhr && event.detail.xhr.status >= 400;
    if (refused && focusFirstError(fresh)) return;
    announce(fresh);
  });
})();
