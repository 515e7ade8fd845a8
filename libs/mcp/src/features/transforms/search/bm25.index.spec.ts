import { Bm25Index, tokenize } from './bm25.index.js';

describe('tokenize', () => {
  it('splits names in every casing, lowers case, drops plurals and one-letter words', () => {
    expect(tokenize('getWeather get_weather get-weather')).toEqual(['get', 'weather', 'get', 'weather', 'get', 'weather']);
    expect(tokenize('Sends Invoices to a customer; HTTP2 status')).toEqual(['send', 'invoice', 'customer', 'http2', 'status']);
    expect(tokenize('')).toEqual([]);
  });
});

describe('Bm25Index', () => {
  const index = () => {
    const built = new Bm25Index();
    built.add(0, tokenize('get_weather get_weather forecast of a city'));
    built.add(1, tokenize('convert_currency amount between currencies'));
    built.add(2, tokenize('weather_alerts storms and warnings of a region weather'));
    built.add(3, tokenize('send_invoice email an invoice to a customer'));
    return built;
  };

  it('ranks documents sharing more, and rarer, words first; only those sharing a word', () => {
    const ids = index()
      .search(tokenize('weather forecast'))
      .map((hit) => hit.id);
    expect(ids).toEqual([0, 2]);
    expect(
      index()
        .search(tokenize('invoice'))
        .map((hit) => hit.id),
    ).toEqual([3]);
    expect(index().search(tokenize('nothing here'))).toEqual([]);
  });

  it('weighs a rare word above a common one', () => {
    const built = new Bm25Index();
    for (let id = 0; id < 20; id++) built.add(id, tokenize(`tool number ${id} report`));
    built.add(20, tokenize('tool report quarterly'));
    expect(built.search(tokenize('report quarterly'))[0].id).toBe(20);
  });

  it('breaks ties by the lower id (registration order)', () => {
    const built = new Bm25Index();
    built.add(5, tokenize('alpha'));
    built.add(2, tokenize('alpha'));
    expect(built.search(['alpha']).map((hit) => hit.id)).toEqual([2, 5]);
  });

  it('adds and removes documents one at a time', () => {
    const built = index();
    built.remove(0);
    expect(built.size).toBe(3);
    expect(built.search(tokenize('forecast'))).toEqual([]);
    expect(built.search(tokenize('weather')).map((hit) => hit.id)).toEqual([2]);
    built.add(2, tokenize('replaced entirely'));
    expect(built.search(tokenize('weather'))).toEqual([]);
    expect(built.search(tokenize('replaced')).map((hit) => hit.id)).toEqual([2]);
    built.remove(99);
    expect(built.size).toBe(3);
  });
});

describe('Bm25Index.search(limit, skip)', () => {
  it('selects the same best documents as a full ranking, page by page', () => {
    const built = new Bm25Index();
    for (let id = 0; id < 200; id++) built.add(id, tokenize(`report ${'weekly '.repeat(id % 7)} number ${id % 13}`));
    const all = built.search(tokenize('weekly report'));
    expect(all).toHaveLength(200);
    expect(built.search(tokenize('weekly report'), 10)).toEqual(all.slice(0, 10));
    expect(built.search(tokenize('weekly report'), 10, 10)).toEqual(all.slice(10, 20));
    expect(built.search(tokenize('weekly report'), 50, 190)).toEqual(all.slice(190));
  });

  it('leaves out the commonest English words', () => {
    expect(tokenize('the weather of the city')).toEqual(['weather', 'city']);
  });
});
