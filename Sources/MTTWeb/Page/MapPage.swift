import MTTCore

/// The map page's HTML, with its scripts and styles either linked (served) or inlined (a report).
enum MapPage {
    /// What a page carries in its head and before its script.
    struct Parts {
        var head: String
        var scripts: String
    }

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
        <h1>mtt coverage</h1>
        <span id="filters">
        <label>Session <select id="session"><option value="">all sessions</option></select></label>
        <label>since <input id="since" type="datetime-local"></label>
        <label>until <input id="until" type="datetime-local"></label>
        <button id="apply" type="button">Show</button>
        </span>
        <span id="problem"></span>
        </header>
        <main>
        <div id="map"></div>
        <aside>
        <section id="status"><h2>Status</h2></section>
        <section id="legend"></section>
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
}
