// The Rummikub tile picker and the optional turn clock (tools/tiles.html).
// Tap a colour, then a number: the tile goes into the field last focused. "Joker standing
// for…" makes the next tile a joker on the table (JK=R7). The clock is off until switched on.
(function () {
  "use strict";
  var picker = document.querySelector("[data-tile-picker]");
  if (picker) {
    var targets = document.querySelectorAll("[data-tiles-target]");
    var target = targets.length ? targets[0] : null;
    var colour = null;
    var joker = false;
    targets.forEach(function (field) {
      field.addEventListener("focus", function () { target = field; });
    });
    var press = function (selector, pressed) {
      picker.querySelectorAll(selector).forEach(function (button) {
        button.setAttribute("aria-pressed", pressed(button) ? "true" : "false");
      });
    };
    var put = function (text) {
      if (!target) { return; }
      var value = target.value;
      var gap = value && !/[\s]$/.test(value) ? " " : "";
      target.value = value + gap + text;
      target.dispatchEvent(new Event("input", { bubbles: true }));
    };
    picker.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button) { return; }
      if (button.dataset.colour) {
        colour = button.dataset.colour;
        press("[data-colour]", function (b) { return b.dataset.colour === colour; });
      } else if (button.dataset.number) {
        if (!colour) { return; }
        put((joker ? "JK=" : "") + colour + button.dataset.number);
        joker = false;
        press("[data-joker]", function () { return false; });
      } else if (button.hasAttribute("data-joker")) {
        joker = !joker;
        press("[data-joker]", function () { return joker; });
      } else if (button.hasAttribute("data-bare-joker")) {
        put("JK");
      } else if (button.hasAttribute("data-new-set")) {
        if (target && target.tagName === "TEXTAREA" && target.value && !/\n$/.test(target.value)) {
          target.value += "\n";
        }
      } else if (button.hasAttribute("data-erase") && target) {
        target.value = target.value.replace(/\s*\S+\s*$/, "");
      }
      if (target) { target.focus(); }
    });
  }

  var clock = document.querySelector("[data-turn-clock]");
  if (clock) {
    var switchOn = clock.querySelector("[data-clock-on]");
    var shown = clock.querySelector(".clock");
    var left = clock.querySelector("[data-clock-left]");
    var up = clock.querySelector(".clock-up");
    var timer = null;
    var seconds = 60;
    var stop = function () { if (timer) { clearInterval(timer); timer = null; } };
    var start = function () {
      stop();
      seconds = 60;
      left.textContent = String(seconds);
      up.hidden = true;
      timer = setInterval(function () {
        seconds -= 1;
        left.textContent = String(seconds);
        if (seconds <= 0) {
          stop();
          up.textContent = clock.dataset.textUp;
          up.hidden = false;
        }
      }, 1000);
    };
    switchOn.addEventListener("change", function () {
      shown.hidden = !switchOn.checked;
      if (switchOn.checked) { start(); } else { stop(); up.hidden = true; }
    });
    clock.querySelector("[data-clock-next]").addEventListener("click", start);
  }
})();
