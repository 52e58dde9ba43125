// Tells the site the browser's time zone once: the `tz` cookie, read by durak_site.time_zones, so that the
// times of the next pages are in the reader's zone (a zone chosen on the profile page wins over it).
const COOKIE = "tz";
const YEAR_S = 365 * 24 * 60 * 60;

function detectedZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch {
    return "";
  }
}

// IANA names are letters, digits and _ + - /, all of them safe in a cookie as they are.
const ZONE_NAME = /^[A-Za-z0-9_+\-/]{1,64}$/;

const zone = detectedZone();
const sent = document.cookie.split("; ").find((pair) => pair.startsWith(`${COOKIE}=`));
if (ZONE_NAME.test(zone) && (!sent || sent.slice(COOKIE.length + 1) !== zone)) {
  document.cookie = `${COOKIE}=${zone}; path=/; max-age=${YEAR_S}; SameSite=Lax`;
}
