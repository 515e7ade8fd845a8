/**
 * Embedded climate dataset for the sample weather server.
 *
 * Monthly means and rain-day counts are rounded climatological normals (roughly 1991–2020, from
 * national met services / WMO normals). They are "approximately right" by design: the server
 * synthesises plausible weather from them, it does not forecast.
 */

/** One city and the climate normals the weather model is driven by. */
export interface CityRecord {
  /** Stable slug used as the canonical identifier, e.g. `beijing`, `new-york`. */
  readonly id: string;
  /** English (or customary Latin-script) name, diacritics kept, e.g. `São Paulo`. */
  readonly name: string;
  /** Simplified Chinese name, without the 市 suffix, e.g. `北京`. */
  readonly nameZh: string;
  /** ISO 3166-1 alpha-2 country or territory code. */
  readonly country: string;
  /** Decimal degrees, north positive. */
  readonly latitude: number;
  /** Decimal degrees, east positive. */
  readonly longitude: number;
  /** IANA time zone name. */
  readonly timezone: string;
  /** Mean daily temperature in °C for January..December (12 values). */
  readonly monthlyMeanC: readonly number[];
  /** Average number of days with measurable precipitation for January..December (12 values). */
  readonly monthlyRainDays: readonly number[];
  /** Extra names the lookup accepts (common English forms, former names, traditional Chinese). */
  readonly aliases?: readonly string[];
}

const RAW_CITIES: readonly CityRecord[] = [
  // ── Mainland China, Hong Kong, Taiwan ────────────────────────────────────────────────
  {
    id: 'beijing', name: 'Beijing', nameZh: '北京', country: 'CN',
    latitude: 39.9042, longitude: 116.4074, timezone: 'Asia/Shanghai',
    monthlyMeanC: [-3.1, 0.3, 6.7, 14.8, 20.8, 24.9, 26.7, 25.5, 20.8, 13.7, 5.0, -0.9],
    monthlyRainDays: [2, 3, 4, 5, 7, 10, 14, 12, 7, 5, 3, 2],
    aliases: ['Peking'],
  },
  {
    id: 'shanghai', name: 'Shanghai', nameZh: '上海', country: 'CN',
    latitude: 31.2304, longitude: 121.4737, timezone: 'Asia/Shanghai',
    monthlyMeanC: [4.8, 6.6, 10.3, 15.8, 21.0, 24.8, 29.0, 28.6, 24.9, 19.8, 13.9, 7.5],
    monthlyRainDays: [10, 10, 13, 12, 12, 14, 12, 12, 10, 7, 8, 8],
  },
  {
    id: 'guangzhou', name: 'Guangzhou', nameZh: '广州', country: 'CN',
    latitude: 23.1291, longitude: 113.2644, timezone: 'Asia/Shanghai',
    monthlyMeanC: [13.9, 15.2, 18.3, 22.4, 25.9, 27.9, 28.9, 28.8, 27.6, 24.9, 20.6, 15.7],
    monthlyRainDays: [7, 10, 15, 16, 18, 19, 16, 16, 12, 6, 5, 5],
    aliases: ['Canton'],
  },
  {
    id: 'shenzhen', name: 'Shenzhen', nameZh: '深圳', country: 'CN',
    latitude: 22.5431, longitude: 114.0579, timezone: 'Asia/Shanghai',
    monthlyMeanC: [15.4, 16.5, 19.1, 23.0, 26.3, 28.2, 28.9, 28.7, 27.7, 25.3, 21.4, 17.0],
    monthlyRainDays: [6, 8, 10, 12, 15, 19, 17, 17, 14, 6, 5, 4],
  },
  {
    id: 'chengdu', name: 'Chengdu', nameZh: '成都', country: 'CN',
    latitude: 30.5728, longitude: 104.0668, timezone: 'Asia/Shanghai',
    monthlyMeanC: [5.6, 7.8, 11.9, 17.1, 21.5, 24.2, 25.9, 25.5, 21.9, 17.6, 12.5, 7.2],
    monthlyRainDays: [7, 8, 12, 14, 15, 16, 18, 17, 16, 14, 8, 5],
  },
  {
    id: 'hangzhou', name: 'Hangzhou', nameZh: '杭州', country: 'CN',
    latitude: 30.2741, longitude: 120.1551, timezone: 'Asia/Shanghai',
    monthlyMeanC: [4.6, 6.9, 11.0, 16.8, 21.9, 25.4, 29.4, 28.6, 24.5, 19.0, 12.8, 6.8],
    monthlyRainDays: [12, 12, 15, 14, 14, 15, 12, 13, 11, 8, 9, 9],
  },
  {
    id: 'wuhan', name: 'Wuhan', nameZh: '武汉', country: 'CN',
    latitude: 30.5928, longitude: 114.3055, timezone: 'Asia/Shanghai',
    monthlyMeanC: [4.0, 6.7, 11.0, 17.3, 22.5, 26.1, 29.0, 28.5, 24.3, 18.5, 11.9, 6.1],
    monthlyRainDays: [9, 10, 13, 12, 13, 12, 11, 10, 8, 8, 7, 7],
  },
  {
    id: 'xian', name: "Xi'an", nameZh: '西安', country: 'CN',
    latitude: 34.3416, longitude: 108.9398, timezone: 'Asia/Shanghai',
    monthlyMeanC: [0.3, 4.1, 9.6, 16.0, 20.9, 25.6, 27.4, 25.8, 20.7, 14.6, 7.5, 1.6],
    monthlyRainDays: [5, 6, 8, 9, 10, 9, 11, 10, 12, 10, 6, 3],
  },
  {
    id: 'harbin', name: 'Harbin', nameZh: '哈尔滨', country: 'CN',
    latitude: 45.8038, longitude: 126.5349, timezone: 'Asia/Shanghai',
    monthlyMeanC: [-17.6, -12.4, -3.2, 7.4, 15.1, 20.6, 23.3, 21.7, 15.4, 6.5, -4.5, -14.0],
    monthlyRainDays: [6, 4, 5, 6, 9, 12, 14, 13, 9, 6, 6, 7],
  },
  {
    id: 'chongqing', name: 'Chongqing', nameZh: '重庆', country: 'CN',
    latitude: 29.563, longitude: 106.5516, timezone: 'Asia/Shanghai',
    monthlyMeanC: [7.9, 10.3, 14.1, 19.0, 22.8, 25.5, 28.6, 28.6, 24.2, 18.8, 14.0, 9.3],
    monthlyRainDays: [10, 10, 13, 15, 17, 15, 12, 11, 13, 15, 11, 10],
  },
  {
    id: 'nanjing', name: 'Nanjing', nameZh: '南京', country: 'CN',
    latitude: 32.0603, longitude: 118.7969, timezone: 'Asia/Shanghai',
    monthlyMeanC: [2.9, 5.3, 10.0, 16.1, 21.4, 25.1, 28.2, 27.7, 23.4, 17.8, 11.2, 4.9],
    monthlyRainDays: [9, 9, 11, 10, 11, 11, 13, 12, 9, 7, 7, 6],
    aliases: ['Nanking'],
  },
  {
    id: 'kunming', name: 'Kunming', nameZh: '昆明', country: 'CN',
    latitude: 25.0389, longitude: 102.7183, timezone: 'Asia/Shanghai',
    monthlyMeanC: [8.9, 10.9, 14.2, 17.4, 19.6, 20.1, 20.0, 19.7, 18.5, 16.0, 12.4, 9.3],
    monthlyRainDays: [3, 3, 5, 6, 11, 18, 21, 20, 15, 11, 5, 2],
  },
  {
    id: 'lhasa', name: 'Lhasa', nameZh: '拉萨', country: 'CN',
    latitude: 29.652, longitude: 91.1721, timezone: 'Asia/Shanghai',
    monthlyMeanC: [-0.3, 2.9, 6.4, 9.6, 13.6, 17.1, 16.7, 15.9, 14.3, 9.9, 4.1, 0.3],
    monthlyRainDays: [1, 1, 3, 6, 10, 15, 21, 20, 15, 4, 1, 1],
  },
  {
    id: 'hong-kong', name: 'Hong Kong', nameZh: '香港', country: 'HK',
    latitude: 22.3193, longitude: 114.1694, timezone: 'Asia/Hong_Kong',
    monthlyMeanC: [16.3, 16.8, 19.1, 22.6, 25.9, 27.9, 28.8, 28.6, 27.7, 25.5, 21.8, 17.9],
    monthlyRainDays: [5, 8, 10, 11, 14, 18, 17, 17, 14, 7, 5, 4],
    aliases: ['Hongkong', '香港特别行政区'],
  },
  {
    id: 'taipei', name: 'Taipei', nameZh: '台北', country: 'TW',
    latitude: 25.033, longitude: 121.5654, timezone: 'Asia/Taipei',
    monthlyMeanC: [16.1, 16.5, 18.5, 21.9, 25.2, 27.7, 29.6, 29.2, 27.4, 24.5, 21.5, 17.9],
    monthlyRainDays: [14, 14, 15, 14, 15, 15, 12, 14, 13, 12, 13, 13],
    aliases: ['臺北', 'Taibei'],
  },

  // ── Rest of Asia ─────────────────────────────────────────────────────────────────────
  {
    id: 'tokyo', name: 'Tokyo', nameZh: '东京', country: 'JP',
    latitude: 35.6762, longitude: 139.6503, timezone: 'Asia/Tokyo',
    monthlyMeanC: [5.4, 6.1, 9.4, 14.3, 18.8, 21.9, 25.7, 26.9, 23.3, 18.0, 12.5, 7.7],
    monthlyRainDays: [5, 6, 10, 10, 11, 13, 12, 9, 12, 10, 7, 5],
  },
  {
    id: 'osaka', name: 'Osaka', nameZh: '大阪', country: 'JP',
    latitude: 34.6937, longitude: 135.5023, timezone: 'Asia/Tokyo',
    monthlyMeanC: [6.2, 6.7, 9.9, 15.3, 20.0, 23.6, 27.7, 29.0, 25.2, 19.4, 13.8, 8.7],
    monthlyRainDays: [7, 8, 11, 10, 10, 13, 11, 8, 11, 9, 7, 7],
  },
  {
    id: 'seoul', name: 'Seoul', nameZh: '首尔', country: 'KR',
    latitude: 37.5665, longitude: 126.978, timezone: 'Asia/Seoul',
    monthlyMeanC: [-2.0, 0.6, 5.8, 12.4, 17.9, 22.2, 24.9, 25.7, 21.2, 14.8, 7.2, 0.4],
    monthlyRainDays: [6, 6, 8, 8, 9, 10, 16, 14, 9, 6, 9, 7],
  },
  {
    id: 'ulaanbaatar', name: 'Ulaanbaatar', nameZh: '乌兰巴托', country: 'MN',
    latitude: 47.8864, longitude: 106.9057, timezone: 'Asia/Ulaanbaatar',
    monthlyMeanC: [-21.6, -16.6, -7.4, 1.2, 8.3, 14.6, 16.6, 14.6, 8.3, -0.1, -11.1, -19.0],
    monthlyRainDays: [2, 2, 3, 3, 6, 10, 14, 12, 7, 3, 3, 3],
    aliases: ['Ulan Bator'],
  },
  {
    id: 'singapore', name: 'Singapore', nameZh: '新加坡', country: 'SG',
    latitude: 1.3521, longitude: 103.8198, timezone: 'Asia/Singapore',
    monthlyMeanC: [26.6, 27.1, 27.6, 28.0, 28.4, 28.3, 27.9, 27.9, 27.7, 27.6, 27.0, 26.5],
    monthlyRainDays: [15, 11, 14, 15, 15, 13, 14, 14, 14, 16, 19, 19],
  },
  {
    id: 'bangkok', name: 'Bangkok', nameZh: '曼谷', country: 'TH',
    latitude: 13.7563, longitude: 100.5018, timezone: 'Asia/Bangkok',
    monthlyMeanC: [27.0, 28.3, 29.5, 30.5, 30.0, 29.5, 29.0, 28.8, 28.3, 28.1, 27.8, 26.5],
    monthlyRainDays: [2, 3, 4, 7, 16, 17, 18, 20, 21, 17, 6, 1],
  },
  {
    id: 'hanoi', name: 'Hanoi', nameZh: '河内', country: 'VN',
    latitude: 21.0278, longitude: 105.8342, timezone: 'Asia/Ho_Chi_Minh',
    monthlyMeanC: [16.4, 17.2, 20.0, 23.9, 27.4, 29.2, 29.4, 28.8, 27.8, 25.3, 21.9, 18.2],
    monthlyRainDays: [8, 11, 15, 13, 14, 15, 16, 17, 14, 9, 6, 5],
    aliases: ['Ha Noi'],
  },
  {
    id: 'manila', name: 'Manila', nameZh: '马尼拉', country: 'PH',
    latitude: 14.5995, longitude: 120.9842, timezone: 'Asia/Manila',
    monthlyMeanC: [26.0, 26.6, 27.8, 29.3, 29.6, 28.7, 28.0, 27.6, 27.6, 27.5, 27.1, 26.5],
    monthlyRainDays: [4, 3, 3, 4, 10, 17, 23, 23, 22, 18, 12, 8],
  },
  {
    id: 'jakarta', name: 'Jakarta', nameZh: '雅加达', country: 'ID',
    latitude: -6.2088, longitude: 106.8456, timezone: 'Asia/Jakarta',
    monthlyMeanC: [26.7, 26.8, 27.3, 27.8, 28.0, 27.7, 27.5, 27.8, 28.1, 28.2, 27.9, 27.2],
    monthlyRainDays: [18, 17, 14, 12, 9, 7, 5, 4, 5, 8, 12, 15],
  },
  {
    id: 'mumbai', name: 'Mumbai', nameZh: '孟买', country: 'IN',
    latitude: 19.076, longitude: 72.8777, timezone: 'Asia/Kolkata',
    monthlyMeanC: [24.4, 25.2, 27.0, 28.7, 30.1, 29.0, 27.6, 27.3, 27.8, 28.7, 27.6, 25.8],
    monthlyRainDays: [0, 0, 0, 0, 1, 14, 22, 21, 14, 3, 1, 0],
    aliases: ['Bombay'],
  },
  {
    id: 'new-delhi', name: 'New Delhi', nameZh: '新德里', country: 'IN',
    latitude: 28.6139, longitude: 77.209, timezone: 'Asia/Kolkata',
    monthlyMeanC: [14.3, 17.6, 23.0, 29.0, 32.8, 33.2, 31.2, 30.0, 29.0, 26.0, 20.3, 15.5],
    monthlyRainDays: [2, 3, 3, 2, 3, 6, 12, 13, 6, 1, 1, 1],
    aliases: ['Delhi'],
  },
  {
    id: 'dubai', name: 'Dubai', nameZh: '迪拜', country: 'AE',
    latitude: 25.2048, longitude: 55.2708, timezone: 'Asia/Dubai',
    monthlyMeanC: [19.0, 20.0, 22.5, 26.5, 30.5, 32.5, 34.5, 35.0, 32.5, 29.0, 24.5, 21.0],
    monthlyRainDays: [2, 2, 2, 1, 0, 0, 0, 0, 0, 0, 1, 2],
  },

  // ── Europe ───────────────────────────────────────────────────────────────────────────
  {
    id: 'london', name: 'London', nameZh: '伦敦', country: 'GB',
    latitude: 51.5074, longitude: -0.1278, timezone: 'Europe/London',
    monthlyMeanC: [5.2, 5.3, 7.6, 9.9, 13.3, 16.5, 18.7, 18.5, 15.7, 12.0, 8.0, 5.5],
    monthlyRainDays: [11, 9, 9, 9, 8, 8, 7, 8, 8, 10, 10, 10],
  },
  {
    id: 'paris', name: 'Paris', nameZh: '巴黎', country: 'FR',
    latitude: 48.8566, longitude: 2.3522, timezone: 'Europe/Paris',
    monthlyMeanC: [5.0, 5.6, 8.8, 11.5, 15.2, 18.3, 20.5, 20.3, 16.9, 13.0, 8.3, 5.5],
    monthlyRainDays: [10, 9, 10, 9, 10, 8, 7, 7, 7, 9, 10, 11],
  },
  {
    id: 'berlin', name: 'Berlin', nameZh: '柏林', country: 'DE',
    latitude: 52.52, longitude: 13.405, timezone: 'Europe/Berlin',
    monthlyMeanC: [0.6, 1.4, 4.8, 9.5, 14.3, 17.5, 19.6, 19.1, 15.1, 10.2, 5.3, 1.8],
    monthlyRainDays: [10, 8, 9, 8, 9, 9, 9, 8, 8, 8, 9, 10],
  },
  {
    id: 'amsterdam', name: 'Amsterdam', nameZh: '阿姆斯特丹', country: 'NL',
    latitude: 52.3676, longitude: 4.9041, timezone: 'Europe/Amsterdam',
    monthlyMeanC: [3.4, 3.5, 6.0, 9.2, 12.9, 15.5, 17.7, 17.5, 14.8, 11.1, 7.0, 4.2],
    monthlyRainDays: [12, 10, 11, 9, 9, 9, 10, 10, 11, 12, 13, 13],
  },
  {
    id: 'zurich', name: 'Zürich', nameZh: '苏黎世', country: 'CH',
    latitude: 47.3769, longitude: 8.5417, timezone: 'Europe/Zurich',
    monthlyMeanC: [0.3, 1.3, 5.2, 9.0, 13.3, 16.7, 18.6, 18.0, 14.3, 10.1, 4.7, 1.2],
    monthlyRainDays: [10, 9, 11, 11, 13, 12, 12, 12, 9, 9, 10, 10],
  },
  {
    id: 'madrid', name: 'Madrid', nameZh: '马德里', country: 'ES',
    latitude: 40.4168, longitude: -3.7038, timezone: 'Europe/Madrid',
    monthlyMeanC: [6.3, 7.9, 11.2, 12.9, 16.7, 22.2, 25.6, 25.1, 20.9, 15.1, 9.9, 6.9],
    monthlyRainDays: [6, 6, 5, 7, 7, 3, 2, 2, 3, 6, 7, 7],
  },
  {
    id: 'lisbon', name: 'Lisbon', nameZh: '里斯本', country: 'PT',
    latitude: 38.7223, longitude: -9.1393, timezone: 'Europe/Lisbon',
    monthlyMeanC: [11.6, 12.6, 14.9, 16.1, 18.3, 21.3, 23.1, 23.5, 22.1, 19.3, 15.2, 12.6],
    monthlyRainDays: [10, 9, 8, 9, 6, 2, 1, 1, 4, 9, 10, 11],
    aliases: ['Lisboa'],
  },
  {
    id: 'rome', name: 'Rome', nameZh: '罗马', country: 'IT',
    latitude: 41.9028, longitude: 12.4964, timezone: 'Europe/Rome',
    monthlyMeanC: [7.5, 8.5, 10.8, 13.6, 17.8, 21.9, 24.7, 24.8, 21.1, 16.8, 11.9, 8.6],
    monthlyRainDays: [7, 8, 7, 8, 5, 3, 2, 3, 5, 8, 10, 9],
    aliases: ['Roma'],
  },
  {
    id: 'athens', name: 'Athens', nameZh: '雅典', country: 'GR',
    latitude: 37.9838, longitude: 23.7275, timezone: 'Europe/Athens',
    monthlyMeanC: [10.2, 10.6, 12.8, 16.4, 21.2, 26.1, 28.9, 28.7, 24.6, 19.8, 15.4, 11.7],
    monthlyRainDays: [11, 9, 8, 6, 4, 2, 1, 1, 3, 6, 9, 11],
  },
  {
    id: 'istanbul', name: 'Istanbul', nameZh: '伊斯坦布尔', country: 'TR',
    latitude: 41.0082, longitude: 28.9784, timezone: 'Europe/Istanbul',
    monthlyMeanC: [6.3, 6.5, 8.2, 12.1, 16.8, 21.5, 24.1, 24.3, 20.6, 16.3, 11.8, 8.3],
    monthlyRainDays: [17, 15, 13, 10, 8, 6, 3, 4, 7, 11, 13, 17],
  },
  {
    id: 'stockholm', name: 'Stockholm', nameZh: '斯德哥尔摩', country: 'SE',
    latitude: 59.3293, longitude: 18.0686, timezone: 'Europe/Stockholm',
    monthlyMeanC: [-1.0, -1.4, 1.2, 5.8, 11.2, 15.6, 18.5, 17.3, 12.6, 7.5, 3.0, 0.3],
    monthlyRainDays: [9, 7, 7, 6, 6, 7, 7, 8, 8, 9, 10, 10],
  },
  {
    id: 'moscow', name: 'Moscow', nameZh: '莫斯科', country: 'RU',
    latitude: 55.7558, longitude: 37.6173, timezone: 'Europe/Moscow',
    monthlyMeanC: [-6.5, -6.7, -1.0, 6.7, 13.2, 17.0, 19.2, 17.0, 11.3, 5.6, -1.2, -5.2],
    monthlyRainDays: [18, 15, 11, 12, 13, 13, 14, 14, 15, 17, 17, 18],
    aliases: ['Moskva'],
  },
  {
    id: 'reykjavik', name: 'Reykjavík', nameZh: '雷克雅未克', country: 'IS',
    latitude: 64.1466, longitude: -21.9426, timezone: 'Atlantic/Reykjavik',
    monthlyMeanC: [0.0, 0.6, 0.7, 3.4, 6.7, 9.6, 11.4, 10.9, 8.3, 4.7, 1.8, 0.2],
    monthlyRainDays: [14, 13, 14, 12, 10, 10, 10, 12, 12, 14, 13, 15],
  },

  // ── Africa ───────────────────────────────────────────────────────────────────────────
  {
    id: 'cairo', name: 'Cairo', nameZh: '开罗', country: 'EG',
    latitude: 30.0444, longitude: 31.2357, timezone: 'Africa/Cairo',
    monthlyMeanC: [14.0, 15.1, 17.6, 21.4, 24.8, 27.4, 28.2, 28.2, 26.4, 23.7, 19.1, 15.5],
    monthlyRainDays: [3, 2, 1, 1, 0, 0, 0, 0, 0, 1, 1, 2],
  },
  {
    id: 'casablanca', name: 'Casablanca', nameZh: '卡萨布兰卡', country: 'MA',
    latitude: 33.5731, longitude: -7.5898, timezone: 'Africa/Casablanca',
    monthlyMeanC: [12.8, 13.4, 15.0, 16.1, 18.4, 20.9, 22.6, 23.2, 22.2, 20.0, 16.5, 14.0],
    monthlyRainDays: [8, 8, 7, 7, 4, 1, 0, 0, 2, 6, 8, 8],
  },
  {
    id: 'lagos', name: 'Lagos', nameZh: '拉各斯', country: 'NG',
    latitude: 6.5244, longitude: 3.3792, timezone: 'Africa/Lagos',
    monthlyMeanC: [27.0, 28.0, 28.4, 28.0, 27.2, 25.9, 25.3, 25.3, 25.7, 26.3, 27.2, 27.1],
    monthlyRainDays: [1, 2, 5, 9, 14, 17, 12, 9, 13, 12, 5, 1],
  },
  {
    id: 'nairobi', name: 'Nairobi', nameZh: '内罗毕', country: 'KE',
    latitude: -1.2921, longitude: 36.8219, timezone: 'Africa/Nairobi',
    monthlyMeanC: [19.0, 19.7, 20.0, 19.5, 18.3, 16.9, 16.0, 16.4, 17.9, 19.3, 18.8, 18.6],
    monthlyRainDays: [5, 6, 11, 16, 13, 6, 6, 7, 5, 8, 15, 11],
  },
  {
    id: 'johannesburg', name: 'Johannesburg', nameZh: '约翰内斯堡', country: 'ZA',
    latitude: -26.2041, longitude: 28.0473, timezone: 'Africa/Johannesburg',
    monthlyMeanC: [20.4, 20.1, 18.9, 15.9, 12.4, 9.7, 9.9, 12.4, 16.0, 17.9, 18.9, 19.8],
    monthlyRainDays: [15, 11, 11, 7, 3, 1, 1, 2, 3, 9, 13, 14],
  },
  {
    id: 'cape-town', name: 'Cape Town', nameZh: '开普敦', country: 'ZA',
    latitude: -33.9249, longitude: 18.4241, timezone: 'Africa/Johannesburg',
    monthlyMeanC: [21.5, 21.7, 20.5, 18.3, 15.9, 13.9, 13.3, 13.6, 14.8, 16.6, 18.7, 20.4],
    monthlyRainDays: [3, 3, 4, 7, 10, 12, 11, 12, 9, 7, 5, 4],
  },

  // ── North America ────────────────────────────────────────────────────────────────────
  {
    id: 'new-york', name: 'New York', nameZh: '纽约', country: 'US',
    latitude: 40.7128, longitude: -74.006, timezone: 'America/New_York',
    monthlyMeanC: [0.5, 1.6, 5.6, 11.8, 17.4, 22.6, 25.5, 24.9, 21.0, 14.8, 9.0, 3.9],
    monthlyRainDays: [11, 10, 11, 11, 12, 11, 11, 10, 9, 10, 9, 11],
    aliases: ['New York City', 'NYC'],
  },
  {
    id: 'chicago', name: 'Chicago', nameZh: '芝加哥', country: 'US',
    latitude: 41.8781, longitude: -87.6298, timezone: 'America/Chicago',
    monthlyMeanC: [-4.6, -2.6, 3.2, 9.6, 15.6, 21.3, 24.1, 23.3, 19.2, 12.5, 5.4, -1.4],
    monthlyRainDays: [11, 9, 11, 12, 12, 11, 10, 9, 9, 10, 10, 11],
  },
  {
    id: 'miami', name: 'Miami', nameZh: '迈阿密', country: 'US',
    latitude: 25.7617, longitude: -80.1918, timezone: 'America/New_York',
    monthlyMeanC: [20.1, 21.1, 22.6, 24.6, 26.9, 28.4, 29.1, 29.3, 28.5, 26.8, 23.8, 21.4],
    monthlyRainDays: [7, 6, 6, 6, 10, 17, 17, 19, 18, 13, 8, 7],
  },
  {
    id: 'los-angeles', name: 'Los Angeles', nameZh: '洛杉矶', country: 'US',
    latitude: 34.0522, longitude: -118.2437, timezone: 'America/Los_Angeles',
    monthlyMeanC: [14.2, 14.6, 15.7, 17.1, 18.6, 20.6, 22.9, 23.6, 23.1, 20.6, 17.1, 14.1],
    monthlyRainDays: [6, 6, 5, 3, 1, 0, 0, 0, 1, 2, 3, 5],
    aliases: ['LA'],
  },
  {
    id: 'san-francisco', name: 'San Francisco', nameZh: '旧金山', country: 'US',
    latitude: 37.7749, longitude: -122.4194, timezone: 'America/Los_Angeles',
    monthlyMeanC: [10.9, 12.3, 13.4, 14.3, 15.3, 16.5, 17.1, 17.8, 18.3, 17.3, 14.0, 11.1],
    monthlyRainDays: [11, 10, 9, 5, 3, 1, 0, 0, 1, 3, 7, 10],
    aliases: ['SF', '三藩市'],
  },
  {
    id: 'anchorage', name: 'Anchorage', nameZh: '安克雷奇', country: 'US',
    latitude: 61.2181, longitude: -149.9003, timezone: 'America/Anchorage',
    monthlyMeanC: [-8.6, -7.2, -4.1, 2.3, 8.3, 12.7, 14.8, 13.6, 9.0, 1.6, -5.3, -7.6],
    monthlyRainDays: [8, 8, 7, 5, 5, 7, 11, 14, 15, 12, 10, 11],
  },
  {
    id: 'honolulu', name: 'Honolulu', nameZh: '檀香山', country: 'US',
    latitude: 21.3069, longitude: -157.8583, timezone: 'Pacific/Honolulu',
    monthlyMeanC: [23.1, 23.0, 23.6, 24.4, 25.3, 26.4, 27.1, 27.5, 27.3, 26.6, 25.3, 23.9],
    monthlyRainDays: [9, 8, 9, 7, 5, 5, 6, 5, 6, 7, 9, 10],
    aliases: ['火奴鲁鲁'],
  },
  {
    id: 'toronto', name: 'Toronto', nameZh: '多伦多', country: 'CA',
    latitude: 43.6532, longitude: -79.3832, timezone: 'America/Toronto',
    monthlyMeanC: [-3.7, -2.6, 1.4, 7.9, 14.1, 19.4, 22.3, 21.5, 17.2, 10.6, 4.9, -0.5],
    monthlyRainDays: [15, 12, 12, 12, 12, 11, 11, 10, 11, 12, 13, 14],
  },
  {
    id: 'montreal', name: 'Montréal', nameZh: '蒙特利尔', country: 'CA',
    latitude: 45.5017, longitude: -73.5673, timezone: 'America/Toronto',
    monthlyMeanC: [-9.7, -7.7, -2.0, 6.4, 13.4, 18.6, 21.2, 20.1, 15.5, 8.5, 2.2, -5.4],
    monthlyRainDays: [16, 13, 13, 12, 13, 13, 12, 11, 12, 13, 15, 16],
  },
  {
    id: 'vancouver', name: 'Vancouver', nameZh: '温哥华', country: 'CA',
    latitude: 49.2827, longitude: -123.1207, timezone: 'America/Vancouver',
    monthlyMeanC: [4.1, 5.0, 6.9, 9.4, 12.8, 15.7, 18.0, 18.1, 15.1, 10.4, 6.3, 3.6],
    monthlyRainDays: [19, 15, 17, 14, 12, 10, 6, 6, 8, 15, 20, 19],
  },
  {
    id: 'mexico-city', name: 'Mexico City', nameZh: '墨西哥城', country: 'MX',
    latitude: 19.4326, longitude: -99.1332, timezone: 'America/Mexico_City',
    monthlyMeanC: [14.1, 15.7, 17.9, 19.3, 19.5, 18.7, 17.7, 17.8, 17.4, 16.4, 15.3, 14.1],
    monthlyRainDays: [2, 2, 4, 7, 11, 17, 22, 21, 18, 9, 3, 2],
    aliases: ['Ciudad de México', 'CDMX'],
  },

  // ── South America ────────────────────────────────────────────────────────────────────
  {
    id: 'bogota', name: 'Bogotá', nameZh: '波哥大', country: 'CO',
    latitude: 4.711, longitude: -74.0721, timezone: 'America/Bogota',
    monthlyMeanC: [13.6, 13.9, 14.1, 14.3, 14.2, 13.9, 13.6, 13.6, 13.7, 13.8, 13.9, 13.7],
    monthlyRainDays: [9, 11, 14, 17, 17, 13, 13, 12, 13, 18, 17, 12],
  },
  {
    id: 'lima', name: 'Lima', nameZh: '利马', country: 'PE',
    latitude: -12.0464, longitude: -77.0428, timezone: 'America/Lima',
    monthlyMeanC: [22.6, 23.5, 23.0, 21.0, 18.9, 17.4, 16.8, 16.4, 16.7, 17.6, 19.1, 21.0],
    monthlyRainDays: [0, 0, 0, 0, 1, 2, 3, 3, 2, 1, 0, 0],
  },
  {
    id: 'sao-paulo', name: 'São Paulo', nameZh: '圣保罗', country: 'BR',
    latitude: -23.5505, longitude: -46.6333, timezone: 'America/Sao_Paulo',
    monthlyMeanC: [22.9, 23.2, 22.5, 20.9, 18.5, 17.3, 16.7, 17.9, 18.8, 20.2, 21.1, 22.3],
    monthlyRainDays: [19, 17, 15, 10, 8, 6, 5, 4, 8, 12, 13, 17],
  },
  {
    id: 'rio-de-janeiro', name: 'Rio de Janeiro', nameZh: '里约热内卢', country: 'BR',
    latitude: -22.9068, longitude: -43.1729, timezone: 'America/Sao_Paulo',
    monthlyMeanC: [26.5, 26.9, 26.4, 24.8, 23.0, 21.8, 21.3, 21.8, 22.4, 23.4, 24.5, 25.7],
    monthlyRainDays: [11, 8, 9, 8, 7, 5, 5, 5, 7, 9, 10, 11],
    aliases: ['Rio'],
  },
  {
    id: 'santiago', name: 'Santiago', nameZh: '圣地亚哥', country: 'CL',
    latitude: -33.4489, longitude: -70.6693, timezone: 'America/Santiago',
    monthlyMeanC: [20.8, 20.3, 18.1, 14.6, 11.5, 8.8, 8.5, 9.8, 12.2, 14.7, 17.6, 19.8],
    monthlyRainDays: [0, 0, 1, 2, 4, 6, 6, 5, 3, 2, 1, 0],
    aliases: ['Santiago de Chile'],
  },
  {
    id: 'buenos-aires', name: 'Buenos Aires', nameZh: '布宜诺斯艾利斯', country: 'AR',
    latitude: -34.6037, longitude: -58.3816, timezone: 'America/Argentina/Buenos_Aires',
    monthlyMeanC: [24.9, 23.9, 22.0, 18.1, 14.7, 11.9, 11.1, 12.8, 14.7, 17.8, 20.9, 23.5],
    monthlyRainDays: [9, 8, 9, 9, 7, 7, 7, 6, 7, 10, 9, 9],
  },

  // ── Oceania ──────────────────────────────────────────────────────────────────────────
  {
    id: 'sydney', name: 'Sydney', nameZh: '悉尼', country: 'AU',
    latitude: -33.8688, longitude: 151.2093, timezone: 'Australia/Sydney',
    monthlyMeanC: [23.5, 23.4, 22.1, 19.5, 16.6, 14.2, 13.4, 14.5, 17.0, 18.9, 20.6, 22.3],
    monthlyRainDays: [8, 9, 10, 8, 8, 8, 7, 6, 6, 8, 9, 8],
  },
  {
    id: 'melbourne', name: 'Melbourne', nameZh: '墨尔本', country: 'AU',
    latitude: -37.8136, longitude: 144.9631, timezone: 'Australia/Melbourne',
    monthlyMeanC: [21.2, 21.3, 19.2, 16.2, 13.5, 11.0, 10.3, 11.2, 13.1, 15.1, 17.4, 19.2],
    monthlyRainDays: [6, 6, 7, 9, 11, 11, 12, 12, 11, 10, 9, 7],
  },
  {
    id: 'perth', name: 'Perth', nameZh: '珀斯', country: 'AU',
    latitude: -31.9505, longitude: 115.8605, timezone: 'Australia/Perth',
    monthlyMeanC: [24.5, 24.8, 23.0, 19.8, 16.6, 14.1, 13.1, 13.6, 15.0, 17.1, 20.2, 22.6],
    monthlyRainDays: [1, 1, 2, 5, 9, 13, 15, 13, 11, 7, 4, 2],
  },
  {
    id: 'auckland', name: 'Auckland', nameZh: '奥克兰', country: 'NZ',
    latitude: -36.8485, longitude: 174.7633, timezone: 'Pacific/Auckland',
    monthlyMeanC: [19.8, 20.3, 19.0, 16.8, 14.4, 12.3, 11.3, 11.8, 13.1, 14.6, 16.4, 18.5],
    monthlyRainDays: [8, 7, 8, 10, 12, 14, 15, 14, 12, 11, 10, 9],
  },

  // ── Antarctica ───────────────────────────────────────────────────────────────────────
  // A research station rather than a city, kept so every continent (and a reliably snowy
  // place) is represented.
  {
    id: 'mcmurdo-station', name: 'McMurdo Station', nameZh: '麦克默多站', country: 'AQ',
    latitude: -77.8419, longitude: 166.6863, timezone: 'Antarctica/McMurdo',
    monthlyMeanC: [-3.0, -9.0, -18.0, -21.5, -23.0, -23.5, -26.0, -26.5, -24.5, -19.0, -10.0, -3.5],
    monthlyRainDays: [5, 6, 6, 6, 6, 6, 6, 6, 6, 6, 5, 5],
    aliases: ['McMurdo'],
  },
];

/** Deep-freezes a record so shared module state cannot be mutated by a caller. */
function freezeCity(city: CityRecord): CityRecord {
  Object.freeze(city.monthlyMeanC);
  Object.freeze(city.monthlyRainDays);
  if (city.aliases) Object.freeze(city.aliases);
  return Object.freeze(city);
}

/** Every city the weather server knows about, deep-frozen, grouped by region. */
export const CITIES: readonly CityRecord[] = Object.freeze(RAW_CITIES.map(freezeCity));
