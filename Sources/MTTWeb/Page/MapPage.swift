import MTTCore

/// The map page's HTML, with its scripts and styles either linked (served) or inlined (a report).
enum MapPage {
    /// What a page carries in its head and before its script.
    struct Parts {
        var head: String
        var scripts: String
    }

    /// - Parameter title: the page's title and its heading.
    static func html(title: String, _ parts: Parts) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(XMLText.escaped(title))</title>
        \(parts.head)
        </head>
        <body>
        <header>
        <h1>\(XMLText.escaped(title))</h1>
        <span id="summary"></span>
        <span id="filters">
        <label>Session <select id="session"><option value="">all sessions</option></select></label>
        <label>since <input id="since" type="datetime-local"></label>
        <label>until <input id="until" type="datetime-local"></label>
        <button id="apply" type="button">Show</button>
        </span>
        <span id="device-filters">
        <label>Device <input id="device-filter" list="device-list" placeholder="all devices" size="18" autocomplete="off"></label>
        <datalist id="device-list"></datalist>
        </span>
        <span id="coverage-filters">
        <label>Cells by <select id="colour"><option value="commonest">most heard signal</option><option value="best">best signal</option></select></label>
        <label>Gateway <select id="gateway-filter"><option value="">all gateways</option></select></label>
        <label>SF <select id="sf-filter"><option value="">all</option>\((7...12).map { "<option value=\"\($0)\">SF\($0)</option>" }.joined())</select></label>
        <label><input id="fade" type="checkbox"> fade by age</label>
        <label id="predicted-choice"><input id="predicted" type="checkbox"> predicted</label>
        <label id="diff-choice" title="the cells newly heard since that day, and those heard before and not since (mtt coverage diff)">Changes since <input id="diff-since" type="date"></label>
        <label id="silent-choice" title="gateways not heard for 5 days before the newest reception: their cells are left out; ticked, drawn faded"><input id="silent" type="checkbox"> silent gateways</label>
        </span>
        <span id="problem"></span>
        </header>
        <main>
        <div id="map"></div>
        <aside>
        <section id="status"><h2>Status</h2></section>
        <section id="legend"></section>
        <section id="places" hidden></section>
        <section id="devices" hidden><h2>Devices</h2><table id="device-table"></table></section>
        <section><h2>Gateways</h2><table id="gateways"></table></section>
        <section><h2>By spreading factor</h2><table id="sfs"></table></section>
        <div id="drawn"></div>
        </aside>
        </main>
        \(parts.scripts)
        </body>
        </html>

        """
    }

    /// `</` inside a script would end it early; JSON and JavaScript read `<\/` the same.
    static func scriptSafe(_ text: String) -> String {
        text.replacingOccurrences(of: "</", with: "<\\/")
    }

    /// JSON the page's script reads (`block(id)`): a data block, which no policy needs to let run.
    static func dataBlock(_ id: String, _ json: String) -> String {
        "<script type=\"application/json\" id=\"\(id)\">\(JSONString.scriptSafe(json))</script>"
    }

    /// The served page's Content-Security-Policy: only its own scripts run (no inline script, no
    /// inline event handler: a gateway id that slipped into the page as markup could do nothing),
    /// it talks only to its server, and images (map tiles) may come from anywhere.
    static let servedPolicy = policy(scripts: "'self'", styles: "'self'") + "; connect-src 'self'; frame-ancestors 'none'"

    /// A report's policy, in a `<meta>`: its scripts and styles are inline, each carrying `nonce`
    /// (made for this file), so an inline handler or an injected script without it does not run.
    static func reportPolicy(nonce: String) -> String {
        policy(scripts: "'nonce-\(nonce)'", styles: "'nonce-\(nonce)'")
    }

    private static func policy(scripts: String, styles: String) -> String {
        "default-src 'none'; script-src \(scripts); style-src \(styles); img-src 'self' data: https: http:; base-uri 'none'; form-action 'none'"
    }
}
