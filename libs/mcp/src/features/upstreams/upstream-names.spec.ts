import { isSkillUri, originalSkillUri, relayedSkillUri } from './upstream-names.js';

describe('the URIs of relayed skills', () => {
  it('puts an upstream skill in a folder named for the upstream, its name still the last segment, and reads it back', () => {
    expect(relayedSkillUri('weather', 'skill://weather-briefing/SKILL.md')).toBe('skill://weather/weather-briefing/SKILL.md');
    expect(relayedSkillUri('acme', 'skill://team/pdf/templates/a.md')).toBe('skill://acme/team/pdf/templates/a.md');
    expect(originalSkillUri('weather', 'skill://weather/weather-briefing/SKILL.md')).toBe('skill://weather-briefing/SKILL.md');
  });

  it("names no skill of another upstream, nor one whose first segment only starts with the upstream's name", () => {
    expect(originalSkillUri('weather', 'skill://weatherx/a/SKILL.md')).toBeUndefined();
    expect(originalSkillUri('weather', 'weather+skill://a/SKILL.md')).toBeUndefined();
    expect(isSkillUri('skill://a/SKILL.md')).toBe(true);
    expect(isSkillUri('file:///skill://a')).toBe(false);
  });
});
