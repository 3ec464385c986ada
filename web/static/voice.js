/* The voice settings form (/voice): uses app.js's api() (PIN prompt, CSRF) and toast(). */
"use strict";

(function initVoice() {
  const form = document.getElementById("voice-form");
  if (!form) return;
  const error = document.getElementById("voice-error");

  function values() {
    const f = form.elements;
    return {
      enabled: f.enabled.checked,
      language: f.language.value,
      voice: f.voice.value.trim(),
      volume: Number(f.volume.value),
      speed: Number(f.speed.value),
      quiet: f.quiet.value.trim(),
      events: Array.from(form.querySelectorAll('input[name="events"]:checked')).map((i) => i.value),
    };
  }

  function show(state) {
    const note = document.getElementById("voice-note");
    note.textContent = state.note || "";
    note.hidden = !state.note;
    const problem = document.getElementById("voice-problem");
    problem.textContent = state.problem || "";
    problem.hidden = !state.problem;
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    try {
      const data = await api("/api/voice", values());
      show(data.voice);
      toast(t("Voice settings saved"));
    } catch (e) {
      error.textContent = e.message;
    }
  });

  document.getElementById("voice-test").addEventListener("click", async () => {
    error.textContent = "";
    try {
      const data = await api("/api/voice/test", {});
      toast(t("Saying: {sentence}", { sentence: data.said }));
    } catch (e) {
      error.textContent = e.message;
    }
  });
})();
