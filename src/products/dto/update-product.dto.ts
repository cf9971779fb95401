import { OmitType } from '@nestjs/swagger';
import { PatchRequiredText, RequiredId } from '../../common/validation';
import { PRODUCT_LIMITS } from '../product.limits';
import { CreateProductDto } from './create-product.dto';

/** Partial update: only the fields present change; null clears an optional field. */
export class UpdateProductDto extends OmitType(CreateProductDto, ['name'] as const) {
  @RequiredId('The product to update.', '019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b')
  productID: string;

  @PatchRequiredText({ description: 'New name of the product.', example: 'Acme Notes 2', max: PRODUCT_LIMITS.name, notBlank: true })
  name?: string;
}
