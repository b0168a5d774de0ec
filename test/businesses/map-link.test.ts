import { describe, expect, it } from 'vitest';
import { parseMapLink } from '../../src/services/businesses';

/*
 * parseMapLink: the venue's position from a pasted Google Maps, Apple Maps or OpenStreetMap link,
 * a geo: URI or a bare pair; a link that carries no position (a short link, a place's name) is
 * refused with words saying what to paste instead. Nothing is fetched.
 */

const at = (latitude: number, longitude: number, source: string) => ({ ok: true, latitude, longitude, source });

describe('parseMapLink', () => {
  it('reads Google Maps links, preferring a place’s pin to the view’s centre', () => {
    const cases: [string, ReturnType<typeof at>][] = [
      [
        'https://www.google.com/maps/place/Harbor+Street+Bistro/@40.7031,-74.0181,17z/data=!3m1!4b1!4m6!3m5!1s0x89c25a1!8m2!3d40.7033124!4d-74.0170321!16s',
        at(40.7033124, -74.0170321, 'google'),
      ],
      ['https://www.google.com/maps/@40.7127753,-74.0059728,15z', at(40.7127753, -74.0059728, 'google')],
      ['https://maps.google.com/?q=40.7128,-74.0060', at(40.7128, -74.006, 'google')],
      ['https://www.google.com/maps/search/?api=1&query=38.7223%2C-9.1393', at(38.7223, -9.1393, 'google')],
      ['https://maps.google.com/maps?ll=51.5413,-0.1420&z=16', at(51.5413, -0.142, 'google')],
      ['https://www.google.com/maps/place/40.7128,-74.0060', at(40.7128, -74.006, 'google')],
      ['https://www.google.com/maps/search/40.7128,+-74.0060?entry=tts', at(40.7128, -74.006, 'google')],
      ['https://www.google.co.uk/maps/@51.5074,-0.1278,12z', at(51.5074, -0.1278, 'google')],
      ['www.google.com/maps/@-33.8688,151.2093,14z', at(-33.8688, 151.2093, 'google')],
    ];
    for (const [link, want] of cases) expect(parseMapLink(link), link).toEqual(want);
  });

  it('reads Apple Maps and OpenStreetMap links, a geo: URI and a bare pair', () => {
    const cases: [string, ReturnType<typeof at>][] = [
      ['https://maps.apple.com/?ll=40.7128,-74.0060&q=Bistro', at(40.7128, -74.006, 'apple')],
      ['https://maps.apple.com/?q=40.7128,-74.0060', at(40.7128, -74.006, 'apple')],
      ['https://maps.apple.com/place?coordinate=35.6762,139.6503&name=Tokyo', at(35.6762, 139.6503, 'apple')],
      ['https://www.openstreetmap.org/#map=17/40.71280/-74.00600', at(40.7128, -74.006, 'openstreetmap')],
      // The marker (mlat/mlon) is the place; the map may be scrolled away from it.
      ['https://www.openstreetmap.org/?mlat=38.7223&mlon=-9.1393#map=15/38.7300/-9.1500', at(38.7223, -9.1393, 'openstreetmap')],
      ['https://osm.org/#map=12/-33.8688/151.2093', at(-33.8688, 151.2093, 'openstreetmap')],
      ['geo:40.7128,-74.0060;u=35', at(40.7128, -74.006, 'geo')],
      ['geo:0,0?q=38.7223,-9.1393(Harbour Kitchen)', at(38.7223, -9.1393, 'geo')],
      ['40.7128, -74.0060', at(40.7128, -74.006, 'coordinates')],
      ['  40.7128,\u221274.0060 ', at(40.7128, -74.006, 'coordinates')],
    ];
    for (const [link, want] of cases) expect(parseMapLink(link), link).toEqual(want);
  });

  it('refuses short links, links without a position and anything that is not a map link, saying why', () => {
    const cases: [string, string][] = [
      ['https://maps.app.goo.gl/AbCdEf123', 'short-link'],
      ['https://goo.gl/maps/AbCdEf123', 'short-link'],
      ['https://maps.apple/p/AbCdEf', 'short-link'],
      ['https://osm.org/go/ZfI6Lw--', 'short-link'],
      ['https://www.google.com/maps/place/Empire+State+Building', 'no-position'],
      ['https://maps.apple.com/?q=Harbor+Street+Bistro', 'no-position'],
      ['https://www.openstreetmap.org/node/123456', 'no-position'],
      ['https://www.google.com/maps/@95.5,-74.0,15z', 'no-position'],
      ['91, 10', 'no-position'],
      ['https://example.com/maps/@40.7128,-74.0060,15z', 'not-a-map-link'],
      ['https://www.google.com/search?q=40.7128,-74.0060', 'not-a-map-link'],
      ['javascript:alert(1)', 'not-a-map-link'],
      ['ftp://maps.google.com/?q=40.7,-74.0', 'not-a-map-link'],
      ['the bistro by the harbour', 'not-a-map-link'],
      ['', 'not-a-map-link'],
    ];
    for (const [link, reason] of cases) {
      const read = parseMapLink(link);
      expect(read, link).toMatchObject({ ok: false, reason });
      if (!read.ok) expect(read.message.length, link).toBeGreaterThan(20);
    }
    const short = parseMapLink('https://maps.app.goo.gl/AbCdEf123');
    expect(!short.ok && short.message).toMatch(/copy the full link from the address bar/);
  });
});
