/// The HTML report's style sheet and script: constants, the same on every page, inline so that a
/// page opens from `file://` or a CI artifact with no other file and no network. The script reads
/// only the page's own DOM (no data is ever written into it), so nothing a scenario holds can run.
enum HTMLReportStyle {
    static let css = """
        body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #222; }
        h1 { font-size: 20px; } h2 { font-size: 16px; margin-top: 28px; }
        .passed { color: #137333; } .failed, .invalid, .stopped { color: #c5221f; }
        table { border-collapse: collapse; } td, th { padding: 3px 10px; text-align: left; border-bottom: 1px solid #eee; vertical-align: top; }
        pre { background: #f6f8fa; padding: 8px; margin: 4px 0; white-space: pre-wrap; overflow-wrap: anywhere; }
        .failure { border-left: 4px solid #c5221f; padding: 4px 12px; margin: 12px 0; }
        .pictures { display: flex; gap: 16px; flex-wrap: wrap; } .pictures figure { margin: 0; }
        .frame svg, .pictures svg { border: 1px solid #ccc; }
        .pictures { overflow: auto; }
        .pictures.overlaid { display: grid; } .pictures.overlaid figure { grid-area: 1 / 1; }
        .pictures.overlaid figure[data-picture=diff], .pictures.overlaid figcaption { display: none; }
        .pictures.overlaid figure[data-picture=actual] { opacity: var(--onion, 0.5); }
        #steps tr.failed td { background: #fdecea; } #steps tr[data-frame] { cursor: pointer; }
        #steps tr.current td { background: #e8f0fe; }
        .gesture-frames { margin: 0 0 8px; } .gesture-frames figcaption { font-size: 12px; color: #555; }
        .gesture-frames .strip { overflow-x: auto; max-width: 90vw; } .gesture-frames svg { height: 320px; width: auto; }
        input[type=search] { width: 320px; padding: 4px; }
        """

    static let script = """
        "use strict";
        // The timeline: the range picks which step's picture shows; a step's row moves it there.
        const scrub = document.getElementById("scrub");
        if (scrub) {
          const frames = Array.from(document.querySelectorAll(".frame"));
          const rows = Array.from(document.querySelectorAll("#steps tr[data-frame]"));
          const show = () => {
            frames.forEach((frame, index) => { frame.hidden = index !== Number(scrub.value); });
            rows.forEach((row) => row.classList.toggle("current", row.dataset.frame === scrub.value));
            document.getElementById("scrub-label").textContent = frames[Number(scrub.value)].dataset.label;
          };
          rows.forEach((row) => row.addEventListener("click", () => { scrub.value = row.dataset.frame; show(); }));
          scrub.addEventListener("input", show);
          show();
        }
        // A golden picture's tools: lay the actual picture over the reference, showing as much of
        // it as the onion range says, and zoom the pictures.
        for (const tools of document.querySelectorAll(".picture-tools")) {
          const pictures = tools.nextElementSibling;
          const overlay = tools.querySelector(".overlay"), onion = tools.querySelector(".onion"), zoom = tools.querySelector(".zoom");
          const apply = () => {
            pictures.classList.toggle("overlaid", overlay.checked);
            pictures.style.setProperty("--onion", String(Number(onion.value) / 100));
            for (const svg of pictures.querySelectorAll("svg")) {
              svg.style.width = svg.width.baseVal.value * Number(zoom.value) + "px";
              svg.style.height = svg.height.baseVal.value * Number(zoom.value) + "px";
            }
          };
          onion.addEventListener("input", () => { overlay.checked = true; apply(); });
          overlay.addEventListener("change", apply);
          zoom.addEventListener("input", apply);
        }
        // Filters: rows of a table whose text holds the search, and (on the index) of a status.
        for (const search of document.querySelectorAll("input[data-filters]")) {
          const rows = Array.from(document.querySelectorAll("#" + search.dataset.filters + " tbody tr"));
          const status = document.getElementById("status");
          const apply = () => {
            const text = search.value.toLowerCase(), wanted = status ? status.value : "";
            rows.forEach((row) => {
              row.hidden = !row.textContent.toLowerCase().includes(text) || (wanted !== "" && row.dataset.status !== wanted);
            });
          };
          search.addEventListener("input", apply);
          if (status) status.addEventListener("change", apply);
        }
        """
}
