import { describe, expect, it } from 'vitest';
import { stripEventHandlers } from './markup';

describe('stripEventHandlers', () => {
  it('removes handler attributes in every quoting style', () => {
    expect(stripEventHandlers('<img src="x" onerror="window.__pwned=1">')).toBe('<img src="x" >');
    expect(stripEventHandlers("<a href='/' onclick='go()'>go</a>")).toBe("<a href='/' >go</a>");
    expect(stripEventHandlers('<b onmouseover=alert(1)>x</b>')).toBe('<b >x</b>');
    expect(stripEventHandlers('<img/onerror=alert(1) src=x>')).toBe('<img/ src=x>');
    expect(stripEventHandlers('<img src="x"onerror="y">')).toBe('<img src="x">');
    expect(stripEventHandlers('<input autofocus onfocus>')).toBe('<input autofocus >');
    expect(stripEventHandlers('<svg ONLOAD="x">')).toBe('<svg >');
  });

  it('handles ">" inside quoted values', () => {
    expect(stripEventHandlers('<img alt="a>b" onerror="x">')).toBe('<img alt="a>b" >');
  });

  it('leaves text and harmless attributes alone', () => {
    expect(stripEventHandlers('a<br />b<br/>c<hr>')).toBe('a<br />b<br/>c<hr>');
    const text = 'Pay one = 1 coin <b class="online">tonight</b> <a href="https://x.example/on=1">one</a>';
    expect(stripEventHandlers(text)).toBe(text);
  });
});
