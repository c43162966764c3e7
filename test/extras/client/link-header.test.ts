import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findLink } from '../../../extras/client/link-header.js';
import { parseLinkHeader } from '../../../extras/client/link-header.js';

describe('parseLinkHeader()', () => {
  test('parseLinkHeader() reads the server\'s next link', () => {
    const links = parseLinkHeader('</v1/pets?limit=20&after=20&status=available>; rel="next"');
    assert.deepEqual(links, [{ target: '/v1/pets?limit=20&after=20&status=available', rel: ['next'], parameters: { rel: 'next' } }]);
  });

  test('parseLinkHeader() splits links at commas outside <…> and quoted strings', () => {
    const links = parseLinkHeader('<https://example.com/a,b>; rel="next"; title="one, two; three", </p2>;rel=prev , <x>; rel="Successor-Version Latest-Version"');
    assert.deepEqual(links.map((link) => link.target), ['https://example.com/a,b', '/p2', 'x']);
    assert.equal(links[0]?.parameters['title'], 'one, two; three');
    assert.deepEqual(links[1]?.rel, ['prev']);
    assert.deepEqual(links[2]?.rel, ['successor-version', 'latest-version']);
  });

  test('parseLinkHeader() keeps the first of repeated parameters and unescapes quoted pairs (RFC 8288 §3.3, RFC 9110 §5.6.4)', () => {
    const [link] = parseLinkHeader('</a>; rel="next"; rel="prev"; title="say \\"hi\\""; anchor');
    assert.deepEqual(link?.rel, ['next']);
    assert.equal(link?.parameters['title'], 'say "hi"');
    assert.equal(link?.parameters['anchor'], '');
  });

  test('parseLinkHeader() skips link-values without <…> and stops at an unclosed one', () => {
    assert.deepEqual(parseLinkHeader('garbage; rel="next", </ok>; rel=next').map((link) => link.target), ['/ok']);
    assert.deepEqual(parseLinkHeader('</ok>; rel=next, <unclosed; rel=next'), [{ target: '/ok', rel: ['next'], parameters: { rel: 'next' } }]);
    assert.deepEqual(parseLinkHeader(''), []);
    assert.deepEqual(parseLinkHeader('  ,  , '), []);
  });

  test('findLink() finds a relation type case-insensitively, or undefined', () => {
    const links = parseLinkHeader('</a>; rel="prev", </b>; rel="NEXT"');
    assert.equal(findLink(links, 'next'), '/b');
    assert.equal(findLink(links, 'Next'), '/b');
    assert.equal(findLink(links, 'last'), undefined);
  });
});
