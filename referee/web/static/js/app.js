/* Remi Referee: small progressive enhancements. Every form works without this file. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  var CARD = /^(10|[2-9AJQKT])[SHDC]$|^JK(=(10|[2-9AJQKT])[SHDC])?$/i;

  function tokens(text) {
    return (text || "").split(/[\s,;>]+/).filter(function (t) { return CARD.test(t); })
      .map(function (t) { return t.toUpperCase().replace(/^T/, "10"); });
  }

  function ready(fn) {
    if (document.readyState !== "loading") fn(); else document.addEventListener("DOMContentLoaded", fn);
  }

  ready(function () {
    enhance(document);
    keepTypingAcrossLanguageSwitch();
    followMatch();
    keepAwake();
    fullScreenButtons();
  });

  // The score sheet and the live round keep the phone awake while they are open: Screen Wake
  // Lock where the browser has it (a secure origin; the lock goes when the page is hidden).
  // Over the table's Wi-Fi the phones open the host by plain http://192.168.x.x, which has no
  // Wake Lock API: there a tiny muted video loops unseen, as NoSleep.js does (its media,
  // static/media/), and a playing video keeps the screen on.
  function keepAwake() {
    var marker = document.querySelector("[data-keep-awake]");
    if (!marker) return;
    var root = document.documentElement;
    var lock = null;
    var video = null;
    function byVideo() {
      if (!video) {
        video = document.createElement("video");
        video.muted = true;
        video.loop = true;
        video.setAttribute("muted", "");
        video.setAttribute("playsinline", "");
        video.setAttribute("aria-hidden", "true");
        ["webm", "mp4"].forEach(function (kind) {
          var url = marker.getAttribute("data-keep-awake-" + kind);
          if (!url) return;
          var source = document.createElement("source");
          source.src = url;
          source.type = "video/" + kind;
          video.appendChild(source);
        });
        video.addEventListener("playing", function () { root.setAttribute("data-awake", "video"); });
        video.addEventListener("pause", function () { root.removeAttribute("data-awake"); });
      }
      if (!video.paused) return;
      var playing = video.play();
      if (playing && playing.catch) playing.catch(function () { /* wants a tap first: see below */ });
    }
    function acquire() {
      if (document.visibilityState !== "visible") return;
      if (!navigator.wakeLock) { byVideo(); return; }
      if (lock) return;
      navigator.wakeLock.request("screen").then(function (sentinel) {
        lock = sentinel;
        root.setAttribute("data-awake", "");
        sentinel.addEventListener("release", function () {
          lock = null;
          root.removeAttribute("data-awake");
        });
      }, byVideo);  // refused (battery saver, a policy): the video tries
    }
    document.addEventListener("visibilitychange", acquire);
    // A browser that plays no video before the first tap plays it then.
    ["pointerdown", "keydown"].forEach(function (kind) {
      document.addEventListener(kind, function () { if (!root.hasAttribute("data-awake")) acquire(); }, true);
    });
    acquire();
  }

  function fullScreenButtons() {
    document.querySelectorAll("[data-fullscreen]").forEach(function (button) {
      var root = document.documentElement;
      if (!root.requestFullscreen) { button.hidden = true; return; }
      button.addEventListener("click", function () {
        if (document.fullscreenElement) document.exitFullscreen(); else root.requestFullscreen().catch(function () {});
      });
    });
  }

  // Everything a part of a page needs to come alive (again, after a live update replaced it).
  function enhance(root) {
    root.querySelectorAll("form[data-confirm]").forEach(function (form) {
      form.addEventListener("submit", function (event) {
        if (!window.confirm(form.getAttribute("data-confirm"))) {
          event.preventDefault();
        } else if (form.hasAttribute("data-confirm-post")) {
          // Confirmed here: skip the confirm page (the form's GET) and post the change itself.
          var token = document.createElement("input");
          token.type = "hidden";
          token.name = "csrf_token";
          token.value = form.getAttribute("data-confirm-post");
          form.appendChild(token);
          form.method = "post";
        }
      });
    });
    root.querySelectorAll("button[data-confirm]").forEach(function (button) {
      button.addEventListener("click", function (event) {
        if (!window.confirm(button.getAttribute("data-confirm"))) event.preventDefault();
      });
    });
    root.querySelectorAll("[data-copy]").forEach(copyButton);
    root.querySelectorAll("input.copy").forEach(function (input) {
      input.addEventListener("focus", function () { input.select(); });
    });
    root.querySelectorAll("input[name=custom_target]").forEach(customTarget);
    root.querySelectorAll("[data-picker]").forEach(setUpPicker);
    root.querySelectorAll("[data-print]").forEach(function (button) {
      button.addEventListener("click", function () { window.print(); });
    });
    root.querySelectorAll("[data-only-for-rules]").forEach(showOnlyForRules);
    root.querySelectorAll("[data-requires]").forEach(askOnlyWhenItApplies);
    root.querySelectorAll("[data-default-when]").forEach(defaultFollowsItsCondition);
    root.querySelectorAll("[data-share-picture]").forEach(sharePicture);
    root.querySelectorAll("form").forEach(winnerFromTheEmptyHand);
    root.querySelectorAll("[data-seat-move]").forEach(seatMover);
    root.querySelectorAll("[data-seat-handle]").forEach(seatDragger);
    if (!document.querySelector(".picker.docked")) undockPage();  // a docked picker replaced by an update
  }

  function undockPage() {
    if (document.querySelector(".picker.docked")) return;
    document.documentElement.classList.remove("picker-docked");
    document.querySelectorAll("main").forEach(function (main) { main.style.paddingBottom = ""; });
  }

  // A page that follows a match (score sheet, live round, a round) asks about once a second
  // whether the match changed (an ETag: 304 while nothing did).  When it did, the page is
  // fetched again and its parts replaced in place, except a part holding a form the player
  // has started to fill in: that stays as typed, and a banner says the match changed.
  // The form still names the version it was made from, so the server can tell.
  function followMatch() {
    var main = document.querySelector("main[data-live-url]");
    if (!main || !window.fetch || !window.DOMParser) return;
    var versionUrl = main.getAttribute("data-live-url");
    var pageUrl = main.getAttribute("data-live-page") || location.pathname;
    var etag = '"' + main.getAttribute("data-live-etag") + '"';
    var busy = false;
    var delay = 1000;
    var timer = null;
    function schedule(ms) { clearTimeout(timer); timer = setTimeout(check, ms); }
    var banner = main.querySelector("[data-live-banner]");
    var reload = main.querySelector("[data-live-reload]");
    if (reload) reload.addEventListener("click", function () { location.assign(pageUrl); });

    function check() {
      if (busy || document.visibilityState === "hidden") return;
      busy = true;
      fetch(versionUrl, { headers: { "If-None-Match": etag }, cache: "no-store", credentials: "same-origin" })
        .then(function (response) {
          if (response.status === 304) return null;
          // The key opens no table any more (its owner replaced it): the page says so.
          if (response.status === 404) { location.assign(pageUrl); return null; }
          if (!response.ok) throw new Error(response.status);
          var next = response.headers.get("ETag");
          if (!next || next === etag) return null;
          return fetchPage(true).then(function (answer) {
            if (answer.patch && patch(answer.html)) {
              etag = next;
              main.setAttribute("data-live-etag", etag.replace(/"/g, ""));
              return null;
            }
            if (!answer.patch) { etag = next; update(answer.html); return null; }
            return fetchPage(false).then(function (whole) { etag = next; update(whole.html); });
          });
        })
        .then(function () { delay = 1000; reached(); }, function (error) {
          delay = Math.min(delay * 2, 15000);
          if (error instanceof TypeError || /^5/.test(error.message)) unreachable();
        })
        .then(function () { busy = false; schedule(delay); });
    }

    // The host out of reach (the Wi-Fi dropped, the host's laptop asleep): the page says so
    // and since when, keeps asking, and catches up by itself once it answers again.
    var since = null;
    function notice() { return main.querySelector("[data-live-offline]"); }
    function unreachable() {
      if (since === null) since = new Date();
      var box = notice();
      if (!box) return;
      var time = since.toLocaleTimeString(document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit" });
      box.textContent = box.getAttribute("data-text").replace("{time}", time);
      box.hidden = false;
      root.setAttribute("data-offline", "");
    }
    function reached() {
      since = null;
      var box = notice();
      if (box) box.hidden = true;
      root.removeAttribute("data-offline");
    }
    var root = document.documentElement;
    window.addEventListener("online", function () { delay = 1000; schedule(0); });

    // A page may carry a field of its form along (data-live-carry): the quick-round form says
    // which round it was opened for, so that the page fetched again can show that round when
    // another phone saved it meanwhile.
    function pageFor() {
      var carried = main.getAttribute("data-live-carry");
      var field = carried && main.querySelector('input[name="' + carried + '"]');
      if (!field || !field.value) return pageUrl;
      return pageUrl + (pageUrl.indexOf("?") < 0 ? "?" : "&") + carried + "=" + encodeURIComponent(field.value);
    }

    // A notice about the round a form was opened for shows only while the form kept is that one.
    function matchNotices() {
      var opened = main.querySelector('input[name="for_round"]');
      main.querySelectorAll("[data-for-round]").forEach(function (notice) {
        notice.hidden = !opened || opened.value !== notice.getAttribute("data-for-round");
      });
    }

    // A page made of parts (the score sheet) lists them with their digests; naming that list
    // asks only for the parts that changed (the answer says Live-Patch).  Past a few
    // kilobytes the list is not sent and the page comes whole.
    function fetchPage(partsOnly) {
      var holder = main.querySelector("[data-live-parts]");
      var have = holder && holder.getAttribute("data-live-parts");
      var headers = {};
      if (partsOnly && have && have.length <= 7000) headers["Live-Have"] = have;
      return fetch(pageFor(), { headers: headers, cache: "no-store", credentials: "same-origin" })
        .then(function (page) {
          if (!page.ok) throw new Error(page.status);
          var patched = page.headers.get("Live-Patch") === "1";
          return page.text().then(function (html) { return { patch: patched, html: html }; });
        });
    }

    // The parts that changed replace theirs; a new one goes after the part before it in
    // its list ([data-parts]); a part no longer listed goes.  False (nothing touched) when
    // the page cannot be brought up to date this way: then it is fetched whole.
    function patch(html) {
      var doc = new DOMParser().parseFromString(html, "text/html");
      var listed = doc.querySelector("template[data-live-parts]");
      var holder = main.querySelector("[data-live-parts]");
      if (!listed || !holder) return false;
      var listing = listed.getAttribute("data-live-parts");
      var order = listing.split(" ").slice(1).map(function (item) { return item.split("=")[0]; });
      var sent = {};
      doc.querySelectorAll("template[data-part]").forEach(function (t) {
        sent[t.getAttribute("data-part")] = t.content.firstElementChild;
      });
      var shown = {};
      main.querySelectorAll("[data-part]").forEach(function (el) { shown[el.getAttribute("data-part")] = el; });
      function listOf(id) { var slash = id.indexOf("/"); return slash > 0 ? id.slice(0, slash) : null; }
      function box(list) { return list && main.querySelector('[data-parts="' + list + '"]'); }
      var possible = order.every(function (id, i) {
        if (shown[id]) return true;
        if (!sent[id] || !listOf(id)) return false;
        return (i > 0 && listOf(order[i - 1]) === listOf(id)) || !!box(listOf(id));
      });
      if (!possible) return false;
      var kept = false;
      Object.keys(shown).forEach(function (id) {
        if (order.indexOf(id) < 0) shown[id].parentNode.removeChild(shown[id]);
      });
      var previous = null;
      order.forEach(function (id, i) {
        var el = shown[id];
        if (sent[id]) {
          var fresh = document.importNode(sent[id], true);
          if (el && beingTyped(el)) {
            kept = true;
          } else if (el) {
            el.parentNode.replaceChild(fresh, el);
            enhance(fresh);
            el = fresh;
          } else {
            if (previous && listOf(order[i - 1]) === listOf(id)) {
              previous.parentNode.insertBefore(fresh, previous.nextSibling);
            } else {
              var list = box(listOf(id));
              list.insertBefore(fresh, list.querySelector(":scope > [data-part]"));
            }
            enhance(fresh);
            el = fresh;
          }
        }
        previous = el;
      });
      holder.setAttribute("data-live-parts", listing);
      if (banner) banner.hidden = !kept;
      document.dispatchEvent(new CustomEvent("referee:updated"));
      return true;
    }

    function update(html) {
      var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("main");
      if (!fresh) return;
      var kept = false;
      var regions = main.querySelectorAll("[data-live-region]");
      var freshRegions = fresh.querySelectorAll("[data-live-region]");
      var sameShape = regions.length > 0 && regions.length === freshRegions.length &&
        Array.prototype.every.call(regions, function (region, i) { return region.id === freshRegions[i].id; });
      if (sameShape) {
        regions.forEach(function (region, i) {
          if (beingTyped(region)) { kept = true; return; }
          var replacement = document.importNode(freshRegions[i], true);
          region.parentNode.replaceChild(replacement, region);
          enhance(replacement);
        });
      } else if (beingTyped(main)) {
        kept = true;
      } else {
        var freshBanner = fresh.querySelector("[data-live-banner]");
        main.innerHTML = fresh.innerHTML;
        main.setAttribute("data-live-etag", etag.replace(/"/g, ""));
        banner = main.querySelector("[data-live-banner]") || freshBanner;
        reload = main.querySelector("[data-live-reload]");
        if (reload) reload.addEventListener("click", function () { location.assign(pageUrl); });
        enhance(main);
      }
      if (banner) banner.hidden = !kept;
      matchNotices();
      document.dispatchEvent(new CustomEvent("referee:updated"));
    }

    // A part is being typed in when one of its fields has focus or differs from how it came.
    function beingTyped(root) {
      var fields = root.querySelectorAll("input, textarea, select");
      return Array.prototype.some.call(fields, function (el) {
        if (el.type === "hidden" || el.type === "submit" || el.type === "button") return false;
        if (el === document.activeElement && el.form) return true;
        if (el.type === "checkbox" || el.type === "radio") return el.checked !== el.defaultChecked;
        if (el.tagName === "SELECT") {
          return Array.prototype.some.call(el.options, function (o) { return o.selected !== o.defaultSelected; });
        }
        if (el.readOnly) return false;
        return el.value !== el.defaultValue;
      });
    }

    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") { delay = 1000; schedule(0); }
    });
    schedule(delay);
  }

  // Switching the language reloads the page: what was typed in its forms is kept for the reload
  // (in sessionStorage, for this page only).  Without JavaScript it is lost.
  function keepTypingAcrossLanguageSwitch() {
    var key = "typed:" + location.pathname;
    function fields(form) {
      return Array.prototype.filter.call(form.elements, function (el) {
        return el.name && ["hidden", "file", "submit", "button", "password"].indexOf(el.type) < 0;
      });
    }
    var forms = Array.prototype.filter.call(document.querySelectorAll("main form"), function (f) {
      return f.method.toLowerCase() === "post";
    });
    document.querySelectorAll("form.lang").forEach(function (lang) {
      lang.addEventListener("submit", function () {
        var typed = forms.map(function (form) {
          return fields(form).map(function (el) {
            return [el.name, el.type === "checkbox" || el.type === "radio" ? el.checked : el.value, el.value];
          });
        });
        try { sessionStorage.setItem(key, JSON.stringify(typed)); } catch (e) { /* private mode */ }
      });
    });
    var saved;
    try { saved = JSON.parse(sessionStorage.getItem(key) || "null"); sessionStorage.removeItem(key); } catch (e) { saved = null; }
    if (!saved || saved.length !== forms.length) return;
    forms.forEach(function (form, i) {
      var els = fields(form);
      (saved[i] || []).forEach(function (item, j) {
        var el = els[j];
        if (!el || el.name !== item[0]) return;
        if (el.type === "checkbox" || el.type === "radio") el.checked = item[1];
        else el.value = item[1];
      });
    });
  }

  // A copy button next to a link: the clipboard if the browser allows it, else the text is
  // selected for the phone's own "Copy".
  function copyButton(button) {
    var input = button.parentNode.querySelector(".copy");
    var label = button.textContent;
    button.addEventListener("click", function () {
      input.focus(); input.select();
      function done() {
        button.textContent = "✓ " + label;
        setTimeout(function () { button.textContent = label; }, 1500);
      }
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(input.value).then(done, function () {});
      } else {
        try { if (document.execCommand("copy")) done(); } catch (e) { /* the text stays selected */ }
      }
    });
  }

  // Typing a target selects "Other"; choosing a preset clears the typed target
  // (without JavaScript the server lets a typed target win).
  function customTarget(input) {
    var form = input.form;
    var other = form.querySelector("input[name=target][value=custom]");
    input.addEventListener("input", function () { if (other && input.value) other.checked = true; });
    form.querySelectorAll("input[name=target]").forEach(function (radio) {
      radio.addEventListener("change", function () { if (radio !== other && radio.checked) input.value = ""; });
    });
  }

  // Up and down beside a seat swap it with its neighbour in place (without JavaScript the
  // buttons post the form, and the server swaps them).
  function seatMover(button) {
    button.addEventListener("click", function (event) {
      var seats = Array.prototype.slice.call(button.form.querySelectorAll("[data-seat] select"));
      var here = seats.indexOf(button.closest("[data-seat]").querySelector("select"));
      var there = seats[here + parseInt(button.getAttribute("data-seat-move"), 10)];
      if (here < 0 || !there) return;
      event.preventDefault();
      var value = seats[here].value;
      seats[here].value = there.value;
      there.value = value;
    });
  }

  // A seat dragged by its handle, with a finger or a mouse (pointer events): the names move
  // from seat to seat, the seats themselves (labels, buttons) stay where they are.
  function seatDragger(handle) {
    handle.addEventListener("pointerdown", function (event) {
      if (event.button !== 0) return;
      var rows = Array.prototype.slice.call(handle.closest("form").querySelectorAll("[data-seat]"));
      var selects = rows.map(function (row) { return row.querySelector("select"); });
      var at = rows.indexOf(handle.closest("[data-seat]"));
      if (at < 0) return;
      event.preventDefault();
      handle.setPointerCapture(event.pointerId);
      var before = selects.map(function (select) { return select.value; });
      rows[at].classList.add("dragging");
      function rowUnder(y) {
        for (var i = 0; i < rows.length - 1; i++) {
          if (y < rows[i].getBoundingClientRect().bottom) return i;
        }
        return rows.length - 1;
      }
      function move(e) {
        var to = rowUnder(e.clientY);
        if (to === at) return;
        var names = selects.map(function (select) { return select.value; });
        names.splice(to, 0, names.splice(at, 1)[0]);
        selects.forEach(function (select, i) { select.value = names[i]; });
        rows[at].classList.remove("dragging");
        rows[to].classList.add("dragging");
        at = to;
      }
      function end() {
        handle.removeEventListener("pointermove", move);
        handle.removeEventListener("pointerup", end);
        handle.removeEventListener("pointercancel", end);
        rows[at].classList.remove("dragging");
        selects.forEach(function (select, i) {  // the draft keeper hears of the new order
          if (select.value !== before[i]) select.dispatchEvent(new Event("change", { bubbles: true }));
        });
      }
      handle.addEventListener("pointermove", move);
      handle.addEventListener("pointerup", end);
      handle.addEventListener("pointercancel", end);
    });
  }

  // A field that only some rulesets use is hidden while another ruleset is chosen.
  function showOnlyForRules(box) {
    var form = box.closest("form");
    var select = form && form.querySelector("select[name=rules]");
    if (!select) return;
    var ids = box.getAttribute("data-only-for-rules").split(" ");
    function update() { box.hidden = ids.indexOf(select.value) < 0; }
    select.addEventListener("change", update);
    update();
  }

  // The cards are one Tab stop (the card last moved to); the arrow keys move between them as
  // they are seen on the screen, Home and End go to the ends of a line; Enter or Space taps.
  function cardsByKeyboard(picker, reached) {
    var grid = picker.querySelector("[data-picker-grid]");
    if (!grid) return;
    grid.addEventListener("focusin", reached);
    var all = Array.prototype.slice.call(grid.querySelectorAll(".pick"));
    all.forEach(function (b, i) { b.tabIndex = i === 0 ? 0 : -1; });
    function box(b) { var r = b.getBoundingClientRect(); return { top: Math.round(r.top), x: r.left + r.width / 2 }; }
    // The card on the nearest line above (-1) or below (+1), closest to the same column.
    function across(here, way) {
      var at = box(here), best = null, bestLine = null, bestGap = Infinity;
      all.forEach(function (b) {
        var p = box(b);
        if ((p.top - at.top) * way <= 2) return;
        if (bestLine === null || (p.top - bestLine) * way < 0) { bestLine = p.top; best = null; bestGap = Infinity; }
        if (p.top !== bestLine) return;
        var gap = Math.abs(p.x - at.x);
        if (gap < bestGap) { best = b; bestGap = gap; }
      });
      return best;
    }
    function line(here) {
      var top = box(here).top;
      return all.filter(function (b) { return box(b).top === top; });
    }
    grid.addEventListener("keydown", function (event) {
      var here = event.target.closest && event.target.closest(".pick");
      if (!here) return;
      var at = all.indexOf(here), next = null;
      if (event.key === "ArrowRight") next = all[at + 1];
      else if (event.key === "ArrowLeft") next = all[at - 1];
      else if (event.key === "ArrowDown") next = across(here, 1);
      else if (event.key === "ArrowUp") next = across(here, -1);
      else if (event.key === "Home") next = line(here)[0];
      else if (event.key === "End") { var same = line(here); next = same[same.length - 1]; }
      else return;
      event.preventDefault();
      if (!next) return;
      here.tabIndex = -1;
      next.tabIndex = 0;
      next.focus();
    });
  }

  // A round that ended with a player going out: the one hand left empty once the others are
  // filled in is the winner's, so "Who?" answers itself (one question and two taps fewer).
  // A winner chosen by the player stays as chosen.
  function winnerFromTheEmptyHand(form) {
    var chips = Array.prototype.slice.call(form.querySelectorAll("input[type=radio][name=player]"));
    var hands = Array.prototype.slice.call(form.querySelectorAll("[data-cards][data-player]"));
    if (!chips.length || hands.length < 2) return;
    var answered = false;  // "Who?" was answered here, not by the player
    function ending() {
      var chosen = form.querySelector("input[name=ending]:checked");
      return chosen ? chosen.value : null;
    }
    function update() {
      var chosen = chips.filter(function (chip) { return chip.checked; })[0];
      if (ending() !== "out" || (chosen && !answered)) return;
      var empty = hands.filter(function (hand) { return !hand.value.trim(); });
      var winner = empty.length === 1 ? empty[0].getAttribute("data-player") : "";
      chips.forEach(function (chip) { chip.checked = chip.value === winner; });
      answered = chips.some(function (chip) { return chip.checked; });
    }
    chips.forEach(function (chip) { chip.addEventListener("change", function () { answered = false; }); });
    hands.forEach(function (hand) {
      hand.addEventListener("input", update);
      hand.addEventListener("referee:picked", update);
    });
    form.querySelectorAll("input[name=ending]").forEach(function (r) { r.addEventListener("change", update); });
  }

  // The results card to the phone's share sheet (a chat app, with its preview), where the
  // browser can share files; elsewhere the button stays hidden and the download link serves.
  function sharePicture(button) {
    if (!navigator.share || !navigator.canShare || !window.File || !window.fetch) return;
    var probe = new File([""], "probe.png", { type: "image/png" });
    if (!navigator.canShare({ files: [probe] })) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      fetch(button.getAttribute("data-share-picture"), { credentials: "same-origin" })
        .then(function (answer) { if (!answer.ok) throw new Error(answer.status); return answer.blob(); })
        .then(function (blob) {
          var file = new File([blob], button.getAttribute("data-share-name"), { type: "image/png" });
          return navigator.share({ files: [file], title: button.getAttribute("data-share-title") });
        })
        .catch(function () { /* dismissed, or not shared: the download link is still there */ });
    });
  }

  // A house rule that needs another one (the number of deals, only for a match of deals) is
  // asked only while that one is chosen; without JavaScript it is asked and, unneeded, ignored.
  function askOnlyWhenItApplies(input) {
    var form = input.form;
    var box = input.closest(".field") || input;
    var needs = JSON.parse(input.getAttribute("data-requires") || "{}");
    var names = Object.keys(needs);
    function chosen(name) {
      var control = form.elements[name];
      if (!control) return null;
      if (control.type === "checkbox") return control.checked ? "true" : "false";
      return control.value;
    }
    function update() {
      box.hidden = !names.every(function (name) { return chosen(name) === null || chosen(name) === needs[name]; });
    }
    names.forEach(function (name) {
      var control = form.elements[name];
      if (control && control.addEventListener) control.addEventListener("change", update);
    });
    update();
  }

  // A house rule whose default another one changes (gin's bonuses with Hollywood scoring): while
  // it still shows the default it was shown with, it shows the new one, and the form says so
  // (defaults_shown) so that the server reads it as left at the default, not as a choice.
  function defaultFollowsItsCondition(input) {
    var form = input.form;
    var record = form && form.elements.defaults_shown;
    if (!record) return;
    var rules = JSON.parse(input.getAttribute("data-default-when") || "[]");
    function value(control) {
      if (control.type === "checkbox") return control.checked ? "true" : "false";
      return control.value;
    }
    function holds(condition) {
      return Object.keys(condition).every(function (name) {
        var control = form.elements[name];
        return control && value(control) === condition[name];
      });
    }
    function update() {
      var shown = JSON.parse(record.value || "{}");
      var before = input.name in shown ? shown[input.name] : input.getAttribute("data-default");
      var now = input.getAttribute("data-default");
      rules.some(function (rule) { if (holds(rule[0])) { now = rule[1]; return true; } return false; });
      if (now === before || value(input) !== before) return;
      if (input.type === "checkbox") input.checked = now === "true";
      else input.value = now;
      shown[input.name] = now;
      record.value = JSON.stringify(shown);
    }
    rules.forEach(function (rule) {
      Object.keys(rule[0]).forEach(function (name) {
        var control = form.elements[name];
        if (control && control.addEventListener) control.addEventListener("change", update);
      });
    });
  }

  function setUpPicker(picker) {
    var scope = picker.closest("form") || document;
    var fields = Array.prototype.slice.call(scope.querySelectorAll("[data-cards]"));
    var target = fields.filter(function (f) { return f.getAttribute("data-cards") !== "layoffs"; })[0] || fields[0];
    // The table may be replaced by a live update while this form is being filled in: look it up.
    function currentTable() { return document.querySelector("[data-accepts]"); }
    function accepts() {
      var table = currentTable();
      return table ? JSON.parse(table.getAttribute("data-accepts") || "{}") : {};
    }
    var layoffs = scope.querySelector("[data-cards=layoffs]");
    var serverUsed = JSON.parse(picker.getAttribute("data-used") || "[]");
    var lastPicked = null;
    var strip = layoffs && picker.querySelector("[data-layoff-strip]");

    var newline = picker.querySelector("[data-picker-newline]");
    var head = picker.querySelector("[data-picker-head]");
    var typeToggle = picker.querySelector("[data-picker-type]");
    var typing = false;
    function mark(field) {
      fields.forEach(function (f) { f.classList.toggle("target", f === field); });
      target = field;
      // "Next meld" only for a field that takes one meld per line.
      if (newline) newline.hidden = !(field.tagName === "TEXTAREA" && field.getAttribute("data-cards") === "lines");
      var name = head && head.querySelector("[data-picker-target]");
      if (name) name.textContent = fieldName(field);
    }

    // The phone keyboard stays down on a card field: the picker fills it.  "Type" brings the
    // keyboard back for whoever prefers it (without JavaScript the fields are plain text boxes).
    function setTyping(on) {
      typing = on;
      fields.forEach(function (f) { if (on) f.removeAttribute("inputmode"); else f.setAttribute("inputmode", "none"); });
      if (typeToggle) typeToggle.setAttribute("aria-pressed", on ? "true" : "false");
    }
    setTyping(false);

    function fieldName(field) {
      var label = field.id && scope.querySelector("label[for='" + field.id + "']");
      var text = label ? label.textContent.trim() : field.name;
      var block = field.closest(".player-block");
      var who = block && block.querySelector("h2, h3");
      return who ? who.textContent.trim() + " · " + text : text;
    }
    function shown(field) { return field.offsetParent !== null; }

    // While a card field is chosen the picker sits at the bottom of the screen, and the page
    // scrolls so that the field stays in sight above it.
    function dock() {
      if (typing || picker.classList.contains("docked")) return;
      picker.classList.add("docked");
      if (head) head.hidden = false;
      document.documentElement.classList.add("picker-docked");
      measure();
    }
    // The room the docked picker takes (its height changes with the buttons it shows).
    function measure() {
      if (!picker.classList.contains("docked")) return;
      var main = picker.closest("main");
      if (main) main.style.paddingBottom = (picker.offsetHeight + 96) + "px";
      // The form's Save bar stays in reach, just above the picker.
      document.documentElement.style.setProperty("--picker-height", picker.offsetHeight + "px");
    }
    if (window.ResizeObserver) new ResizeObserver(measure).observe(picker);
    function undock() {
      if (!picker.classList.contains("docked")) return;
      picker.classList.remove("docked");
      if (head) head.hidden = true;
      undockPage();
    }
    function keepInSight(field) {
      if (!picker.classList.contains("docked")) return;
      measure();
      var box = (field.closest(".field") || field).getBoundingClientRect();
      var bar = scope.querySelector(".buttons.sticky");
      var room = window.innerHeight - picker.offsetHeight - (bar ? bar.offsetHeight : 0) - 8;
      if (box.height > room - 8) box = field.getBoundingClientRect();
      if (box.bottom > room) window.scrollBy(0, box.bottom - room);
      else if (box.top < 8) window.scrollBy(0, box.top - 8);
    }
    function choose(field) {
      mark(field);
      dock();
      keepInSight(field);
    }
    function step(by) {
      var usable = fields.filter(shown);
      if (!usable.length) return;
      var at = usable.indexOf(target);
      var next = usable[(at + by + usable.length) % usable.length];
      // The focus stays off the fields: a focused text box would bring the keyboard back.
      if (fields.indexOf(document.activeElement) >= 0 && document.activeElement !== next) document.activeElement.blur();
      choose(next);
    }

    fields.forEach(function (f) {
      // Chosen by a tap: the picker docks.  Reached by the Tab key: the field is only marked.
      f.addEventListener("focus", function () { mark(f); });
      f.addEventListener("click", function () { if (!typing) choose(f); });
      f.addEventListener("input", function () { refresh(); highlight(tokens(f.value).pop()); });
    });
    // Another field chosen (the ending, the player): the picker steps aside.  Not for a
    // button: the page would move under the finger between its press and its release.
    document.addEventListener("focusin", function (event) {
      if (!document.contains(picker)) return;
      var el = event.target;
      if (fields.indexOf(el) < 0 && !picker.contains(el) && el.matches && el.matches("input, select, textarea")) undock();
    });
    // A tap on the picker keeps the focus where it was (no keyboard opens or closes).
    picker.addEventListener("mousedown", function (event) {
      if (event.target.closest("button")) event.preventDefault();
    });
    if (target) mark(target);
    // A card reached from the keyboard docks the picker: its head says which field the cards
    // go to, and its buttons before the cards choose another field.
    cardsByKeyboard(picker, function () { if (target && !typing) choose(target); });

    // Jokers are all alike: the joker key is used once every joker of the deck is.
    var jokers = picker.hasAttribute("data-jokers") ? parseInt(picker.getAttribute("data-jokers"), 10) : 0;
    var jokersUsed = parseInt(picker.getAttribute("data-jokers-used") || "0", 10);

    // With two decks (manipulation for 3+) a card is used up only when both copies are.
    var copies = parseInt(picker.getAttribute("data-copies") || "1", 10) || 1;

    // manipulation's "table" field lists the whole table after the turn (the table as it
    // stands, then the cards played): a card counts as often as the most of either says.
    function refresh() {
      var count = {};
      var onTableField = {};
      var typedJokers = 0;
      function add(into, c) { into[c] = (into[c] || 0) + 1; }
      serverUsed.forEach(function (c) { add(count, c); });
      fields.forEach(function (f) {
        var into = f.name === "table" ? onTableField : count;
        tokens(f.value).forEach(function (c) {
          if (/^JK/i.test(c)) typedJokers += 1; else add(into, c);
        });
      });
      var jokersGone = jokers > 0 && jokersUsed + typedJokers >= jokers;
      picker.querySelectorAll(".pick").forEach(function (b) {
        var code = b.getAttribute("data-code");
        var n = Math.max(count[code] || 0, onTableField[code] || 0);
        b.classList.toggle("used", code === "JK" ? jokersGone : n >= copies);
      });
    }

    function highlight(code) {
      var table = currentTable();
      if (!table) return;
      var numbers = (code && accepts()[code]) || [];
      table.querySelectorAll("[data-meld]").forEach(function (m) {
        var yes = numbers.indexOf(parseInt(m.getAttribute("data-meld"), 10)) >= 0;
        m.classList.toggle("accepts", yes);
        m.setAttribute("aria-pressed", yes ? "false" : "");
      });
      showStrip(lastPicked && lastPicked.code === code ? numbers : []);
    }

    // Next to the picker, the melds the card just tapped can go on: one tap lays it off there,
    // without scrolling up to the table.
    function showStrip(numbers) {
      if (!strip) return;
      var targets = strip.querySelector("[data-layoff-targets]");
      targets.textContent = "";
      numbers.forEach(function (n) {
        var b = document.createElement("button");
        b.type = "button"; b.className = "small"; b.textContent = n;
        b.setAttribute("data-layoff-onto", n);
        targets.appendChild(b);
      });
      strip.hidden = numbers.length === 0;
    }

    function layOff(number) {
      if (!lastPicked) return;
      // The tapped card went into whichever field had the focus (the lay-off field too):
      // it leaves that field and becomes a line of its own, "4S > 2".
      var field = lastPicked.field;
      field.value = field.value.replace(new RegExp("\\s*" + lastPicked.code.replace("=", "\\=") + "\\s*$"), "");
      var line = lastPicked.code + " > " + number;
      layoffs.value = layoffs.value.replace(/\s+$/, "");
      layoffs.value += (layoffs.value ? "\n" : "") + line;
      lastPicked = null;
      highlight(null);
      refresh();
      picker.querySelectorAll(".pick.picked").forEach(function (b) { b.classList.remove("picked"); });
    }

    function append(field, code) {
      var value = field.value.replace(/[ \t]+$/, "");
      var sep = value === "" || /\n$/.test(value) ? "" : " ";
      field.value = value + sep + code;
      field.dispatchEvent(new CustomEvent("referee:picked"));
    }

    picker.addEventListener("click", function (event) {
      var onto = event.target.closest("[data-layoff-onto]");
      if (onto) { layOff(onto.getAttribute("data-layoff-onto")); return; }
      var stepper = event.target.closest("[data-picker-step]");
      if (stepper) { step(parseInt(stepper.getAttribute("data-picker-step"), 10)); return; }
      if (event.target.closest("[data-picker-done]")) {
        if (fields.indexOf(document.activeElement) >= 0) document.activeElement.blur();
        undock();
        return;
      }
      if (event.target.closest("[data-picker-type]")) {
        setTyping(!typing);
        if (typing) { undock(); if (target) target.focus(); }  // asked for: the keyboard opens
        return;
      }
      var button = event.target.closest(".pick");
      if (button) {
        if (!target) return;
        if (!typing && !picker.classList.contains("docked")) choose(target);
        var code = button.getAttribute("data-code");
        append(target, code);
        lastPicked = { code: code, field: target };
        picker.querySelectorAll(".pick.picked").forEach(function (b) { b.classList.remove("picked"); });
        button.classList.add("picked");
        highlight(code);
        refresh();
        return;
      }
      if (event.target.closest("[data-picker-back]") && target) {
        target.value = target.value.replace(/\s*\S+\s*$/, "");
        target.dispatchEvent(new CustomEvent("referee:picked"));
        refresh(); highlight(null);
      }
      if (event.target.closest("[data-picker-newline]") && target && target.tagName === "TEXTAREA") {
        target.value = target.value.replace(/[ \t]+$/, "") + "\n";
      }
    });

    if (layoffs) {
      document.addEventListener("click", function (event) {
        if (!document.contains(picker)) return;  // a picker replaced by a live update
        var meld = event.target.closest("[data-accepts] [data-meld].accepts");
        if (meld) layOff(meld.getAttribute("data-meld"));
      });
    }
    refresh();
  }
})();
