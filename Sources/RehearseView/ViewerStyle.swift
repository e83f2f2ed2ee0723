/// The viewer page's styles, served as `/viewer.css`.
enum ViewerStyle {
    static let css = #"""
      :root { font: 14px system-ui, sans-serif; color: #222; background: #eceef1; }
      body { margin: 0; display: flex; gap: 16px; padding: 16px; align-items: flex-start; flex-wrap: wrap; }
      #stage { display: flex; flex-direction: column; gap: 8px; align-items: center; }
      #screen { background: #111; padding: 14px; border-radius: 28px; box-shadow: 0 4px 18px #0003; line-height: 0; }
      #screen svg { cursor: pointer; background: #fff; max-height: 80vh; width: auto; }
      #screen.review svg { outline: 3px solid #e6a700; }
      .bar { display: flex; gap: 6px; flex-wrap: wrap; justify-content: center; max-width: 420px; }
      button, select { font: inherit; padding: 4px 9px; border: 1px solid #aab; border-radius: 6px; background: #fff; cursor: pointer; }
      button:disabled, select:disabled { opacity: .45; cursor: default; }
      #side { flex: 1; min-width: 320px; max-width: 640px; display: flex; flex-direction: column; gap: 10px; }
      section { background: #fff; border-radius: 10px; padding: 10px 12px; box-shadow: 0 1px 3px #0001; }
      h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .06em; color: #667; margin: 0 0 6px; }
      #clock { font: 600 20px ui-monospace, monospace; }
      #status { color: #556; }
      #state { font: 12px ui-monospace, monospace; white-space: pre-wrap; margin: 0; max-height: 180px; overflow: auto; }
      #log { font: 12px ui-monospace, monospace; height: 220px; overflow: auto; margin: 0; white-space: pre; }
      #tiltpad { width: 120px; height: 120px; border-radius: 50%; background: radial-gradient(#fff, #cfd6e0); border: 1px solid #99a; position: relative; touch-action: none; }
      .finger { position: fixed; width: 28px; height: 28px; margin: -14px 0 0 -14px; border-radius: 50%; background: #0a64d866;
                border: 2px solid #0a64d8; pointer-events: none; z-index: 10; }
      #screen { touch-action: none; }
      #tiltdot { position: absolute; width: 16px; height: 16px; border-radius: 50%; background: #0a64d8; left: 52px; top: 52px; pointer-events: none; }
      #timeline input { width: 100%; }
      #markers { position: relative; height: 14px; }
      #markers span { position: absolute; top: 2px; width: 2px; height: 10px; }
      #markers .event { background: #8899aa; } #markers .expectation { background: #0a8a3a; } #markers .failure { background: #d22; }
      #error { color: #b00; min-height: 1em; }
      .row { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
    """#
}
