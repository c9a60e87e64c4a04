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
    document.querySelectorAll("[data-picker]").forEach(setUpPicker);
    document.querySelectorAll("[data-only-for-rules]").forEach(showOnlyForRules);
  });

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

    function mark(field) {
      fields.forEach(function (f) { f.classList.toggle("target", f === field); });
      target = field;
    }
    fields.forEach(function (f) {
      f.addEventListener("focus", function () { mark(f); });
      f.addEventListener("input", function () { refresh(); highlight(tokens(f.value).pop()); });
    });
    if (target) mark(target);

    function refresh() {
      var used = {};
      serverUsed.forEach(function (c) { used[c] = true; });
      fields.forEach(function (f) { tokens(f.value).forEach(function (c) { used[c.replace(/^JK=.*/, "JK")] = true; }); });
      picker.querySelectorAll(".pick").forEach(function (b) {
        var code = b.getAttribute("data-code");
        b.classList.toggle("used", !!used[code] && code !== "JK");
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
    }

    function append(field, code) {
      var value = field.value.replace(/[ \t]+$/, "");
      var sep = value === "" || /\n$/.test(value) ? "" : " ";
      field.value = value + sep + code;
    }

    picker.addEventListener("click", function (event) {
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
        if (!meld || !lastPicked) return;
        var field = lastPicked.field;
        if (field !== layoffs) {
          field.value = field.value.replace(new RegExp("\\s*" + lastPicked.code.replace("=", "\\=") + "\\s*$"), "");
        }
        var line = lastPicked.code + " > " + meld.getAttribute("data-meld");
        layoffs.value = layoffs.value.replace(/\s+$/, "");
        layoffs.value += (layoffs.value ? "\n" : "") + line;
        lastPicked = null;
        highlight(null);
        refresh();
        picker.querySelectorAll(".pick.picked").forEach(function (b) { b.classList.remove("picked"); });
      });
    }
    refresh();
  }
})();
