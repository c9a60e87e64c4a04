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
    document.querySelectorAll("form[data-confirm]").forEach(function (form) {
      form.addEventListener("submit", function (event) {
        if (!window.confirm(form.getAttribute("data-confirm"))) event.preventDefault();
      });
    });
    document.querySelectorAll("button[data-confirm]").forEach(function (button) {
      button.addEventListener("click", function (event) {
        if (!window.confirm(button.getAttribute("data-confirm"))) event.preventDefault();
      });
    });
    keepTypingAcrossLanguageSwitch();
    document.querySelectorAll("[data-copy]").forEach(copyButton);
    document.querySelectorAll("input.copy").forEach(function (input) {
      input.addEventListener("focus", function () { input.select(); });
    });
    document.querySelectorAll("input[name=custom_target]").forEach(customTarget);
    document.querySelectorAll("[data-picker]").forEach(setUpPicker);
    document.querySelectorAll("[data-only-for-rules]").forEach(showOnlyForRules);
  });

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
    var input = button.parentNode.querySelector("input.copy");
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

  function setUpPicker(picker) {
    var scope = picker.closest("form") || document;
    var fields = Array.prototype.slice.call(scope.querySelectorAll("[data-cards]"));
    var target = fields.filter(function (f) { return f.getAttribute("data-cards") !== "layoffs"; })[0] || fields[0];
    var table = document.querySelector("[data-accepts]");
    var accepts = table ? JSON.parse(table.getAttribute("data-accepts") || "{}") : {};
    var layoffs = scope.querySelector("[data-cards=layoffs]");
    var serverUsed = JSON.parse(picker.getAttribute("data-used") || "[]");
    var lastPicked = null;
    var strip = layoffs && picker.querySelector("[data-layoff-strip]");

    var newline = picker.querySelector("[data-picker-newline]");
    function mark(field) {
      fields.forEach(function (f) { f.classList.toggle("target", f === field); });
      target = field;
      // "Next meld" only for a field that takes one meld per line.
      if (newline) newline.hidden = !(field.tagName === "TEXTAREA" && field.getAttribute("data-cards") === "lines");
    }
    fields.forEach(function (f) {
      f.addEventListener("focus", function () { mark(f); });
      f.addEventListener("input", function () { refresh(); highlight(tokens(f.value).pop()); });
    });
    if (target) mark(target);

    // Jokers are all alike: the joker key is used once every joker of the deck is.
    var jokers = picker.hasAttribute("data-jokers") ? parseInt(picker.getAttribute("data-jokers"), 10) : 0;
    var jokersUsed = parseInt(picker.getAttribute("data-jokers-used") || "0", 10);

    function refresh() {
      var used = {};
      var typedJokers = 0;
      serverUsed.forEach(function (c) { used[c] = true; });
      fields.forEach(function (f) {
        tokens(f.value).forEach(function (c) {
          if (/^JK/i.test(c)) typedJokers += 1; else used[c] = true;
        });
      });
      used.JK = jokers > 0 && jokersUsed + typedJokers >= jokers;
      picker.querySelectorAll(".pick").forEach(function (b) {
        b.classList.toggle("used", !!used[b.getAttribute("data-code")]);
      });
    }

    function highlight(code) {
      if (!table) return;
      var numbers = (code && accepts[code]) || [];
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
      var field = lastPicked.field;
      if (field !== layoffs) {
        field.value = field.value.replace(new RegExp("\\s*" + lastPicked.code.replace("=", "\\=") + "\\s*$"), "");
      }
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
    }

    picker.addEventListener("click", function (event) {
      var onto = event.target.closest("[data-layoff-onto]");
      if (onto) { layOff(onto.getAttribute("data-layoff-onto")); return; }
      var button = event.target.closest(".pick");
      if (button) {
        if (!target) return;
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
        refresh(); highlight(null);
      }
      if (event.target.closest("[data-picker-newline]") && target && target.tagName === "TEXTAREA") {
        target.value = target.value.replace(/[ \t]+$/, "") + "\n";
        target.focus();
      }
    });

    if (table && layoffs) {
      table.addEventListener("click", function (event) {
        var meld = event.target.closest("[data-meld].accepts");
        if (meld) layOff(meld.getAttribute("data-meld"));
      });
    }
    refresh();
  }
})();
