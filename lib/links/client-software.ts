// A linked client's software, said briefly from its User-Agent header: the browser and system
// for a browser ("Firefox 128 on Linux"), else the first product ("curl 8.5.0"). The header is
// whatever the client sent, so this only ever names; it never decides anything.

const SOFTWARE_MAX = 60;

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\/(\d+)/, "Edge"],
  [/\bOPR\/(\d+)/, "Opera"],
  [/\bFirefox\/(\d+)/, "Firefox"],
  [/\bChrom(?:e|ium)\/(\d+)/, "Chrome"],
  [/\bVersion\/(\d+)[\d.]* (?:Mobile\/\S+ )?Safari\//, "Safari"],
];

const SYSTEMS: [RegExp, string][] = [
  [/\b(?:iPhone|iPad|iPod)\b/, "iOS"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bWindows\b/, "Windows"],
  [/\bLinux\b/, "Linux"],
];

/** "name version" of the header's first product token, if it has one. */
function firstProduct(userAgent: string): string | null {
  const match = /^([A-Za-z0-9][\w.+-]*)(?:\/([\w.+-]+))?/.exec(userAgent.trim());
  if (match === null) return null;
  return match[2] ? `${match[1]} ${match[2]}` : match[1];
}

/** The client software a User-Agent names, briefly; null when it names nothing readable. */
export function clientSoftware(userAgent: string | null): string | null {
  if (userAgent === null || userAgent.trim() === "") return null;
  if (userAgent.startsWith("Mozilla/")) {
    const browser = BROWSERS.map(([pattern, name]) => {
      const version = pattern.exec(userAgent)?.[1];
      return version === undefined ? null : `${name} ${version}`;
    }).find((found) => found !== null);
    const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
    if (browser) return system ? `${browser} on ${system}` : browser;
  }
  return firstProduct(userAgent)?.slice(0, SOFTWARE_MAX) ?? null;
}
