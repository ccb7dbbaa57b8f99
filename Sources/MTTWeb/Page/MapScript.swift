/// The map page's script: plain JavaScript over Leaflet, the same for `mtt serve` (data from the
/// API, live through Server-Sent Events) and `mtt report` (data inlined as a JSON block).
///
/// Every string from the data (gateway ids come from whoever runs a gateway) goes into the page as
/// text, through DOM nodes: the script builds no HTML from data at all, and the page's
/// Content-Security-Policy refuses inline event handlers should anything slip through.
///
/// The script is `map.js` beside this file, a file linters and `node --check` read; the EmbedText
/// build plugin makes it `MapScript.text` at build time, so the one binary carries it (a resource
/// bundle would have to be installed beside it).
enum MapScript {}
