// Touché's few enhancements; every page works without them.
// - The header menu is a <details>: opened on a wide screen, folded on a phone.
// - After a refused action swapped in by htmx, the focus goes to the form's error summary
//   (or, for a form without one, to its first error), and each summary link focuses its field.
// - After an action, a screen reader hears what was logged (#announcer, a polite live region).
// - A <time data-local> logged in UTC is shown in the reader's local time.
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

  document.addEventListener("htmx:afterSettle", function (event) {
    var root = event.detail.elt && event.detail.elt.isConnected ? event.detail.elt : document.body;
    var fresh = document.getElementById(root.id) || root;  // an outerHTML swap replaced the target
    var refused = event.detail.xhr && event.detail.xhr.status >= 400;
    if (refused && focusFirstError(fresh)) return;
    announce(fresh);
  });
})();
