import 'reflect-metadata';
import { Type } from 'class-transformer';
import { getMetadataStorage, IsArray, IsEmail, IsEnum, IsInt, IsOptional, IsString, MaxLength, Min, ValidateNested } from 'class-validator';
import { DtoSchemaFactory } from './dto-schema.factory.js';
it('perf', () => {
  enum Color { Red = 'red', Blue = 'blue' }
  const dtos = Array.from({ length: 500 }, (_, index) => {
    class NestedDto {}
    IsString()(NestedDto.prototype, 'label');
    class Dto { limit = 5; }
    IsString()(Dto.prototype, 'name'); MaxLength(80)(Dto.prototype, 'name');
    IsOptional()(Dto.prototype, 'limit'); IsInt()(Dto.prototype, 'limit'); Min(1)(Dto.prototype, 'limit');
    IsEmail()(Dto.prototype, 'email'); IsArray()(Dto.prototype, 'tags'); IsString({ each: true })(Dto.prototype, 'tags');
    IsEnum(Color)(Dto.prototype, 'color'); ValidateNested()(Dto.prototype, 'nested'); Type(() => NestedDto)(Dto.prototype, 'nested');
    return Dto;
  });
  for (let round = 0; round < 10; round++) {
    let t = performance.now();
    
    const a = performance.now() - t;
    t = performance.now();
    const factory = new DtoSchemaFactory();
    for (const dto of dtos) factory.forClass(dto);
    const b = performance.now() - t;
    t = performance.now();
    for (const dto of dtos) factory.forClass(dto);
    const c = performance.now() - t;
    const docs = dtos.map((dto) => factory.forClass(dto));
    t = performance.now();
    for (const doc of docs) structuredClone(doc);
    const d = performance.now() - t;
    t = performance.now();
    for (const dto of dtos) new (dto as any)();
    const e = performance.now() - t;
    console.log({ metadataOnly: a, full: b, cached: c, clone: d, instantiate: e });
  }
});
