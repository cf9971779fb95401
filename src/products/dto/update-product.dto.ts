import { OmitType } from '@nestjs/swagger';
import { PatchRequiredText, RequiredId } from '../../common/validation';
import { PRODUCT_LIMITS } from '../product.limits';
import { CreateProductDto } from './create-product.dto';

/** Partial update: only the fields present change; null clears an optional field. */
export class UpdateProductDto extends OmitType(CreateProductDto, ['name'] as const) {
  @RequiredId('The product to update. A productID from products/addOne or products/getList.')
  productID: string;

  @PatchRequiredText({ description: 'New name of the product.', example: 'Acme Notes 2', max: PRODUCT_LIMITS.name, notBlank: true })
  name?: string;
}
