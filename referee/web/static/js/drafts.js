/* Nothing typed is ever lost: every form marked data-draft keeps what is typed in it on the
   phone (localStorage, one draft per table and per page the form posts to) until the host
   acknowledges the save.  A reload, a phone that slept or a tab closed by mistake brings the
   draft back (and says so, with a way to discard it).  A save that cannot reach the host waits
   and is sent again when the network returns, with the hidden fields it was made from: the
   version (a stale one is still answered by the conflict page) and the one-time key (a save
   that landed already is recognised by the host and by the receipt asked below).
   Without JavaScript the forms post as before. */
(function () {
  "use strict";
  var PREFIX = "remi-draft:";
  var LIFETIME = 14 * 24 * 3600 * 1000;  // a draft nobody came back to in two weeks is dropped
  var texts = {};
  var pending = null;  // {form, submitter, timer, delay}: a save waiting for the network

  function ready(fn) {
    if (document.readyState !== "loading") fn(); else document.addEventListener("DOMContentLoaded", fn);
  }

  function storage() {
    try { return window.localStorage; } catch (e) { return null; }  // private mode, disabled
  }

  function read(name) {
    var store = storage();
    if (!store) return null;
    try { return JSON.parse(store.getItem(PREFIX + name) || "null"); } catch (e) { return null; }
  }

  function write(name, draft) {
    var store = storage();
    if (!store) return;
    try { store.setItem(PREFIX + name, JSON.stringify(draft)); } catch (e) { /* full: the form still works */ }
  }

  function drop(name) {
    var store = storage();
    if (store) store.removeItem(PREFIX + name);
  }

  function forgetOldDrafts() {
    var store = storage();
    if (!store) return;
    for (var i = store.length - 1; i >= 0; i--) {
      var key = store.key(i);
      if (key && key.indexOf(PREFIX) === 0) {
        var draft = read(key.slice(PREFIX.length));
        if (!draft || Date.now() - (draft.at || 0) > LIFETIME) store.removeItem(key);
      }
    }
  }

  // The fields a draft keeps: everything named, but the CSRF token (the page's own is fresh)
  // and the buttons (which one was pressed is kept apart, for a save sent again).
  function fields(form) {
    return Array.prototype.filter.call(form.elements, function (el) {
      return el.name && el.name !== "csrf_token" && el.type !== "submit" && el.type !== "button" &&
        el.type !== "file" && el.type !== "reset";
    });
  }

  // What the form holds now, or (asSent) what it held as the host sent it, whatever was typed
  // before this script ran (a slow phone, or the browser's own restoring of a reloaded form):
  // what a draft is compared with.
  function state(form, asSent) {
    return fields(form).map(function (el) {
      if (el.type === "checkbox" || el.type === "radio") {
        return [el.name, el.value, asSent ? el.defaultChecked : el.checked];
      }
      if (el.type === "select-multiple" || el.type === "select-one") {
        var chosen = Array.prototype.filter.call(el.options, function (o) {
          return asSent ? o.defaultSelected : o.selected;
        }).map(function (o) { return o.value; });
        if (el.type === "select-multiple") return [el.name, chosen, null];
        if (asSent && !chosen.length && el.options.length) chosen = [el.options[0].value];
        return [el.name, chosen.length ? chosen[0] : "", null];
      }
      return [el.name, asSent ? el.defaultValue : el.value, null];
    });
  }

  function apply(form, values) {
    var els = fields(form);
    values.forEach(function (item, i) {
      var el = els[i];
      if (!el || el.name !== item[0]) {
        el = els.filter(function (e) { return e.name === item[0] && (item[2] === null || e.value === item[1]); })[0];
      }
      if (!el) return;
      if (el.type === "checkbox" || el.type === "radio") el.checked = item[2];
      else if (el.type === "select-multiple") {
        Array.prototype.forEach.call(el.options, function (o) { o.selected = item[1].indexOf(o.value) >= 0; });
      } else el.value = item[1];
      el.dispatchEvent(new Event("change", { bubbles: true }));
    });
  }

  // What the player typed or chose (hidden fields left out): the same means nothing to bring back.
  function typed(form, values) {
    var visible = {};
    fields(form).forEach(function (el) { if (el.type !== "hidden") visible[el.name] = true; });
    return JSON.stringify(values.filter(function (item) { return visible[item[0]]; }));
  }

  function once(values) {
    var found = values.filter(function (item) { return item[0] === "once"; })[0];
    return found ? found[1] : "";
  }

  function notice(form, message, actions) {
    var box = form.querySelector(".draft-notice");
    if (!box) {
      box = document.createElement("div");
      box.className = "draft-notice";
      box.setAttribute("role", "status");
      form.insertBefore(box, form.firstChild);
    }
    box.textContent = "";
    box.classList.remove("waiting");
    var p = document.createElement("p");
    p.textContent = message;
    box.appendChild(p);
    (actions || []).forEach(function (action) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "small";
      button.textContent = action[0];
      button.addEventListener("click", action[1]);
      box.appendChild(button);
    });
    return box;
  }

  function clearNotice(form) {
    var box = form.querySelector(".draft-notice");
    if (box) box.remove();
  }

  function save(form) {
    if (!form.draftReady) return;
    var values = state(form);
    var name = form.getAttribute("data-draft");
    if (typed(form, values) === typed(form, form.draftOriginal)) {
      drop(name);
      return;
    }
    var old = read(name) || {};
    var waiting = form.draftSending || (pending && pending.form === form);
    write(name, { at: Date.now(), values: values, sent: !!(old.sent && waiting) });
  }

  function saveAll() {
    document.querySelectorAll("form[data-draft]").forEach(save);
  }

  function receipt(token, form) {
    // The attribute: form.action would be a field named "action" (the save buttons).
    var at = new URL(form.getAttribute("action") || "", location.href).pathname;
    var url = texts.receipts.replace("TOKEN", encodeURIComponent(token)) + "?at=" + encodeURIComponent(at);
    return fetch(url, { cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error("no answer");
        return response.json();
      });
  }

  // Whether the host answers at all (any status will do).
  function reach(token) {
    return fetch(texts.receipts.replace("TOKEN", encodeURIComponent(token || "-")), {
      cache: "no-store", credentials: "same-origin",
    });
  }

  function bringBack(form, draft) {
    var original = form.draftOriginal;
    apply(form, draft.values);
    var when = new Date(draft.at);
    var time = ("0" + when.getHours()).slice(-2) + ":" + ("0" + when.getMinutes()).slice(-2);
    notice(form, (draft.sent ? texts.unsent : texts.restored).replace("%(time)s", time), [
      [texts.discard, function () {
        apply(form, original);
        drop(form.getAttribute("data-draft"));
        clearNotice(form);
      }],
    ]);
  }

  function setUp(form) {
    var name = form.getAttribute("data-draft");
    form.draftOriginal = state(form, true);
    var draft = read(name);
    function start() { form.draftReady = true; }
    if (form.hasAttribute("data-draft-posted")) {
      // This page answers the form's own post (refused, or a conflict): it holds what was
      // sent, with the version to send now; the draft follows it.
      form.draftOriginal = [];
      start();
      save(form);
      return;
    }
    if (!draft || !draft.values) { start(); save(form); return; }  // typed before we ran
    if (typed(form, draft.values) === typed(form, form.draftOriginal)) {
      if (draft.sent) drop(name);  // the page shows what was saved (a new name, say)
      start();
      save(form);
      return;
    }
    if (!draft.sent && typed(form, state(form)) === typed(form, draft.values)) {
      start();  // already on screen (put back by the language switch): nothing to announce
      return;
    }
    var token = once(draft.values);
    if (draft.sent && token) {
      receipt(token, form).then(function (answer) {
        if (answer.saved) drop(name); else bringBack(form, draft);
      }, function () { bringBack(form, draft); }).then(start);
      return;
    }
    bringBack(form, draft);
    start();
  }

  // -- sending: through the page's own post once the host answers ----------------------------

  function post(form, submitter) {
    var extra = null;
    if (submitter && submitter.name) {
      extra = document.createElement("input");
      extra.type = "hidden";
      extra.name = submitter.name;
      extra.value = submitter.value;
      form.appendChild(extra);
    }
    var draft = read(form.getAttribute("data-draft"));
    if (draft) { draft.sent = true; write(form.getAttribute("data-draft"), draft); }
    form.draftSending = true;
    HTMLFormElement.prototype.submit.call(form);
  }

  function trySend() {
    if (!pending) return;
    var form = pending.form, submitter = pending.submitter;
    clearTimeout(pending.timer);
    // Any answer of the host will do: it is reachable.  The receipt says too whether this
    // save already landed (then posting again only leads to where it went).
    reach(once(state(form))).then(function () {
      pending = null;
      notice(form, texts.sending).classList.add("waiting");
      post(form, submitter);
    }, function () {
      pending.delay = Math.min(pending.delay * 2, 15000);
      pending.timer = setTimeout(trySend, pending.delay);
    });
  }

  function onSubmit(event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-draft]") || event.defaultPrevented) return;
    if (form.draftSending) return;
    save(form);
    var draft = read(form.getAttribute("data-draft"));
    if (draft) { draft.sent = true; write(form.getAttribute("data-draft"), draft); }
    form.draftSending = true;
    // With a network the page posts as it would without JavaScript (a host that does not
    // answer leaves the draft marked sent: brought back, and said so, when the form is opened
    // again).  Without one, the save waits here and goes when the network is back.
    if (navigator.onLine !== false) return;
    event.preventDefault();
    form.draftSending = false;
    if (pending) clearTimeout(pending.timer);
    pending = { form: form, submitter: event.submitter || null, delay: 2000, timer: null };
    waitForNetwork(form);
  }

  function waitForNetwork(form) {
    notice(form, texts.offline).classList.add("waiting");  // kept in sight at the top
    pending.timer = setTimeout(trySend, pending.delay);
  }

  ready(function () {
    var box = document.getElementById("draft-texts");
    if (!box || !storage()) return;
    texts = {
      restored: box.getAttribute("data-restored"),
      unsent: box.getAttribute("data-unsent"),
      discard: box.getAttribute("data-discard"),
      offline: box.getAttribute("data-offline"),
      sending: box.getAttribute("data-sending"),
      receipts: box.getAttribute("data-receipts"),
    };
    forgetOldDrafts();
    document.querySelectorAll("form[data-draft]").forEach(setUp);
    document.addEventListener("input", function (event) {
      if (event.target.form && event.target.form.hasAttribute("data-draft")) save(event.target.form);
    });
    document.addEventListener("change", function (event) {
      if (event.target.form && event.target.form.hasAttribute("data-draft")) save(event.target.form);
    });
    // The card picker fills fields without an input event: save after any tap.
    document.addEventListener("click", function () { setTimeout(saveAll, 0); });
    document.addEventListener("submit", onSubmit);
    window.addEventListener("online", trySend);
    window.addEventListener("pagehide", saveAll);
    window.addEventListener("pageshow", function (event) {  // back from the next page
      if (event.persisted) document.querySelectorAll("form[data-draft]").forEach(function (f) { f.draftSending = false; });
    });
  });
})();
